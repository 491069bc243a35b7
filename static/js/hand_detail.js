// The hand page: the fairness check, and the replayer when the page carries the hand's
// history (a JSON data block, not a script: the Content-Security-Policy allows no inline
// script).
import { mountReplayer } from "./replayer.js";
import { mountVerify } from "./verify.js";

mountVerify(document.querySelector("[data-fairness]"));

const history = document.getElementById("hand-history");
const replayer = document.getElementById("replayer");
if (history && replayer) {
  const data = JSON.parse(history.textContent);
  if (data) mountReplayer(replayer, data);
}
