"""What a login's browser reads as to its player: "Firefox 130 on Linux", "Mobile Safari 17 on
iOS (iPhone)", not the raw user-agent string (issue #26: the settings page's sessions). The
user-agent database is ua-parser's (the uap-core regexes every major analytics tool uses)."""

from __future__ import annotations

from functools import lru_cache

from ua_parser import parse

UNKNOWN_DEVICE = "Unknown device"


@lru_cache(maxsize=512)
def device_label(user_agent: str) -> str:
    """The browser with its major version, the system, and the device where one is named."""
    if not user_agent.strip():
        return UNKNOWN_DEVICE
    found = parse(user_agent)
    browser = found.user_agent
    if browser is None or browser.family == "Other":
        return UNKNOWN_DEVICE
    label = browser.family + (f" {browser.major}" if browser.major else "")
    system = found.os
    if system is not None and system.family != "Other":
        label += f" on {system.family}"
    device = found.device
    named = "" if system is None else system.family
    shown = device is not None and device.family not in ("Other", "Spider")
    if shown and device is not None and not named.startswith(device.family):  # no "(Mac)"
        label += f" ({device.family})"
    return label
