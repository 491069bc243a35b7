// Integer cents as the room writes them: 5000 -> "$50.00", 5 -> "$0.05".
export function dollars(cents) {
  const value = Number(cents) || 0;
  const sign = value < 0 ? "-" : "";
  const abs = Math.abs(value);
  const whole = Math.floor(abs / 100).toLocaleString("en-US");
  const part = String(abs % 100).padStart(2, "0");
  return `${sign}$${whole}.${part}`;
}

// Short form for stakes and chips on the felt: 500 -> "$5", 25 -> "25c", 250 -> "$2.50".
export function shortDollars(cents) {
  const value = Number(cents) || 0;
  if (value < 100) return `${value}c`;
  if (value % 100 === 0) return `$${(value / 100).toLocaleString("en-US")}`;
  return dollars(value);
}

// Tournament tables count chips, not cents (R-TOUR-1: 800 chips for $40): a page showing one
// switches the table's amounts to plain chip counts once, before it draws. The wallet stays in
// dollars (dollars() is never switched).
let units = "cents";

export function useChipUnits(on) {
  units = on ? "chips" : "cents";
}

// 1500 -> "1,500".
export function chipCount(chips) {
  return (Number(chips) || 0).toLocaleString("en-US");
}

// An amount on the table: dollars at a cash table, chips at a tournament table.
export function amount(value) {
  return units === "chips" ? chipCount(value) : dollars(value);
}

export function stakesText(table) {
  if (units === "chips") return `${chipCount(table.small_bet)}/${chipCount(table.big_bet)}`;
  return `${shortDollars(table.small_bet)}/${shortDollars(table.big_bet)}`;
}

export const GAME_NAMES = { stud: "Stud", stud8: "Stud Hi/Lo", razz: "Razz" };

// "50.00" or "$50" -> 5000; null when it is not an amount of dollars and cents.
export function parseDollars(text) {
  const match = /^\s*\$?(\d+)(?:\.(\d{1,2}))?\s*$/.exec(String(text).replace(/,/g, ""));
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] || "0").padEnd(2, "0"));
}
