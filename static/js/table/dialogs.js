// @ts-check
// The table page's dialogs and messages: the buy-in / add-chips dialog, the toast, and the
// wallet balance they read.
import { dollars, parseDollars } from "../money.js";

export const TOAST_MS = 5_000;

export class Toast {
  constructor(element) {
    this.element = element;
    this.timer = null;
  }

  show(text) {
    this.element.textContent = text;
    this.element.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.element.hidden = true; }, TOAST_MS);
  }
}

// A question with two answers in a modal dialog: ask() resolves true for the "yes" button.
export class ConfirmDialog {
  constructor(dialog) {
    this.dialog = dialog;
    this.resolve = null;
    dialog.addEventListener("close", () => {
      const resolve = this.resolve;
      this.resolve = null;
      if (resolve) resolve(dialog.returnValue === "yes");
    });
  }

  get open() {
    return this.dialog.open;
  }

  ask(text, yes) {
    if (this.resolve) this.resolve(false);
    this.dialog.querySelector("[data-confirm-text]").textContent = text;
    this.dialog.querySelector("[data-confirm-yes]").textContent = yes;
    this.dialog.returnValue = "";
    this.dialog.showModal();
    this.dialog.querySelector("[data-confirm-no]").focus();
    return new Promise((resolve) => { this.resolve = resolve; });
  }
}

// The player's other tabs of the room hear of every balance one of them reads.
const WALLET_CHANNEL = "stud-room-wallet";
const walletChannel = typeof BroadcastChannel === "function" ? new BroadcastChannel(WALLET_CHANNEL) : null;

// The player's balance from the server (the last known one when offline), written in `shown`
// and told to the player's other tabs.
export async function refreshBalance(page, shown) {
  if (!page.player_id) return page.balance;
  try {
    const response = await fetch("/tables/balance.json", { headers: { Accept: "application/json" } });
    if (response.ok) page.balance = (await response.json()).balance;
  } catch {
    // Offline: keep the last known balance.
  }
  if (shown) shown.textContent = dollars(page.balance);
  if (walletChannel) walletChannel.postMessage({ player_id: page.player_id, balance: page.balance });
  return page.balance;
}

// Another tab read the balance (a buy-in, a cash-out there): show it here too.
export function followBalance(page, shown) {
  if (!walletChannel || !page.player_id) return;
  walletChannel.addEventListener("message", (event) => {
    const { player_id: playerId, balance } = event.data || {};
    if (playerId !== page.player_id || typeof balance !== "number") return;
    page.balance = balance;
    shown.textContent = dollars(balance);
  });
}

// What the amount typed says: an error to show, or "" when `cents` may be sent.
export function buyInError(cents, { min, balance }) {
  if (cents === null) return "Type an amount such as 20.00";
  if (cents < min) return `At least ${dollars(min)}.`;
  if (cents > balance) return `Your balance is ${dollars(balance)}.`;
  return "";
}

export class BuyInDialog {
  // send(message): the table command; balance(): a promise of the player's balance.
  /**
   * @param {any} dialog
   * @param {{send: import("./connection.js").SendCommand, balance: () => Promise<number>}} on
   */
  constructor(dialog, { send, balance }) {
    this.dialog = dialog;
    this.send = send;
    this.balance = balance;
    dialog.querySelector("[data-dialog-cancel]").addEventListener("click", () => dialog.close());
  }

  get open() {
    return this.dialog.open;
  }

  // Sit down (at `seat`, or any free one), or add chips (`add`) at `table`.
  async show(table, { seat = null, add = false }) {
    const dialog = this.dialog;
    const balance = await this.balance();
    const form = dialog.querySelector("form");
    const amount = form.elements.amount;
    const min = add ? 1 : table.buy_in;
    dialog.querySelector("[data-dialog-title]").textContent = add ? "Add chips" : `Buy in${seat ? ` at seat ${seat}` : ""}`;
    dialog.querySelector("[data-dialog-help]").textContent = add
      ? `Your balance is ${dollars(balance)}.`
      : `At least ${dollars(table.buy_in)}, at most your balance of ${dollars(balance)}.`;
    dialog.querySelector("[data-dialog-error]").textContent = "";
    form.elements.submit.textContent = add ? "Add chips" : "Sit down";
    amount.value = (Math.min(table.buy_in, balance) / 100).toFixed(2);
    form.onsubmit = (event) => {
      event.preventDefault();
      const cents = parseDollars(amount.value);
      const error = buyInError(cents, { min, balance });
      if (error) {
        dialog.querySelector("[data-dialog-error]").textContent = error;
        return;
      }
      if (add) this.send({ type: "add_chips", amount: cents });
      else this.send({ type: "sit", buy_in: cents, ...(seat ? { seat } : {}) });
      dialog.close();
    };
    dialog.showModal();
    amount.select();
  }
}
