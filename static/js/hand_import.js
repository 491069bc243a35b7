// The import page (issue #24 item 5): the hands read from the player's own file, each
// replayed on demand in the same replayer as the room's hands. The hands come in a JSON data
// block (the Content-Security-Policy allows no inline script); nothing here talks to the
// server.
import { mountReplayer } from "./replayer.js";

const data = document.getElementById("imported-hands");
const element = document.getElementById("replayer");
const replays = data ? JSON.parse(data.textContent) : [];
const title = document.querySelector("[data-replay-title]");
let mounted = null;

function open(index, { focus = false } = {}) {
  const history = replays[index];
  if (!history || !element) return;
  if (mounted) mounted.destroy();
  // A fresh element each time, so the last hand's key handler goes with its element.
  const host = document.createElement("div");
  element.replaceChildren(host);
  mounted = mountReplayer(host, history);
  const row = document.querySelector(`[data-import-row="${index}"]`);
  for (const other of document.querySelectorAll("[data-import-row]")) {
    other.classList.toggle("replaying", other === row);
  }
  if (title && row) title.textContent = row.querySelector("td").firstChild.textContent.trim();
  if (focus) {
    host.scrollIntoView({ block: "start" });
    host.focus();
  }
}

for (const button of document.querySelectorAll("[data-replay]")) {
  button.addEventListener("click", () => open(Number(button.dataset.replay), { focus: true }));
}
if (replays.length) open(0);
