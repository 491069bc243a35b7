// @ts-check
// The top bar's menu on a phone: folded behind "Menu", so the bar keeps one line and every
// link ("Log out" too) is one tap away, never off the screen's edge. On a wider screen the
// button is not shown (room.css) and the menu is always open.

const bar = document.querySelector(".topbar");
const toggle = /** @type {HTMLButtonElement | null} */ (document.querySelector(".menu-toggle"));

function setOpen(/** @type {boolean} */ open) {
  if (!bar || !toggle) return;
  bar.classList.toggle("menu-open", open);
  toggle.setAttribute("aria-expanded", String(open));
}

if (bar && toggle) {
  toggle.hidden = false;
  bar.classList.add("menu-folds");
  toggle.addEventListener("click", () => setOpen(!bar.classList.contains("menu-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bar.classList.contains("menu-open")) {
      setOpen(false);
      toggle.focus();
    }
  });
}
