"""The only code that changes a tournament: each public function one transaction (or a step
run inside one), named `<entity>_<action>` like the table services."""
