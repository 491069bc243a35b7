// The staff dashboard (templates/accounting/dashboard.html, issue #16): draws the rake chart
// with Chart.js (static/vendor/chart.js, loaded before this module) from the figures the page
// was served with (json_script), then polls the JSON endpoint and updates every figure.
import { dollars } from "./money.js";

const root = document.querySelector("[data-dashboard]");
const canvas = document.getElementById("rake-chart");
const status = document.querySelector("[data-dashboard-status]");

function figureAt(figures, path) {
  return path.split(".").reduce((value, key) => (value === undefined || value === null ? value : value[key]), figures);
}

function dayLabel(isoDay) {
  // "2026-12-01" -> "Dec 1", read as a calendar day (no time zone shift)
  const [year, month, day] = isoDay.split("-").map(Number);
  return new Date(year, month - 1, day).toLocaleDateString("en-US", { month: "short", day: "numeric" });
}

function chartData(figures) {
  const days = figures.rake.days;
  return {
    labels: days.map((entry) => dayLabel(entry.day)),
    values: days.map((entry) => entry.rake / 100),
    colours: days.map((_, index) => (index === days.length - 1 ? "#c9a227" : "#0b5d3b")),
  };
}

function drawChart(figures) {
  const Chart = window.Chart;
  if (!canvas || !Chart) return null;
  const data = chartData(figures);
  return new Chart(canvas, {
    type: "bar",
    data: {
      labels: data.labels,
      datasets: [{ label: "Rake ($)", data: data.values, backgroundColor: data.colours }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => dollars(Math.round(item.parsed.y * 100)) } },
      },
      scales: {
        y: { beginAtZero: true, ticks: { callback: (value) => dollars(Math.round(value * 100)) } },
      },
    },
  });
}

function updateChart(chart, figures) {
  if (!chart) return;
  const data = chartData(figures);
  chart.data.labels = data.labels;
  chart.data.datasets[0].data = data.values;
  chart.data.datasets[0].backgroundColor = data.colours;
  chart.update();
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function adminUrl(template, id) {
  return template.replace("/0/", `/${id}/`);
}

function updateLists(figures) {
  const pots = document.querySelector("[data-largest-pots]");
  if (pots) {
    const rows = figures.largest_pots.map((pot) => {
      const tr = document.createElement("tr");
      const hand = document.createElement("td");
      hand.append(link(adminUrl(root.dataset.handUrl, pot.hand_id), `#${pot.number}`));
      const amount = cell(dollars(pot.pot));
      amount.className = "money";
      tr.append(cell(pot.table), hand, amount);
      return tr;
    });
    if (rows.length === 0) {
      const tr = document.createElement("tr");
      const td = cell("No hand finished today.");
      td.colSpan = 3;
      tr.append(td);
      rows.push(tr);
    }
    pots.replaceChildren(...rows);
  }
  const out = document.querySelector("[data-timed-out]");
  if (out) {
    const items = figures.timed_out.seats.map((seat) => {
      const li = document.createElement("li");
      li.append(link(adminUrl(root.dataset.playerUrl, seat.player_id), seat.player), ` at ${seat.table}, seat ${seat.seat}`);
      return li;
    });
    if (items.length === 0) {
      const li = document.createElement("li");
      li.textContent = "Nobody.";
      items.push(li);
    }
    out.replaceChildren(...items);
  }
}

function updateFigures(figures) {
  for (const element of document.querySelectorAll("[data-figure]")) {
    const value = figureAt(figures, element.dataset.figure);
    if (value === undefined || value === null) continue;
    if ("money" in element.dataset) element.textContent = dollars(value);
    else if ("time" in element.dataset) element.textContent = new Date(value).toLocaleTimeString("en-US");
    else element.textContent = String(value);
  }
  const health = document.querySelector("[data-health]");
  if (health) {
    health.dataset.ok = figures.health.ok ? "yes" : "no";
    health.querySelector("strong").textContent = figures.health.ok ? "OK" : "Trouble";
  }
  updateLists(figures);
}

function timeOf(at) {
  const time = document.createElement("time");
  time.dateTime = at;
  time.dataset.figure = "at";
  time.dataset.time = "";
  time.textContent = new Date(at).toLocaleTimeString("en-US");
  return time;
}

async function poll(chart) {
  try {
    const response = await fetch(root.dataset.url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const figures = await response.json();
    updateFigures(figures);
    updateChart(chart, figures);
    if (status) status.replaceChildren("as of ", timeOf(figures.at));
  } catch (error) {
    if (status) status.textContent = `not refreshed (${error.message}); trying again`;
  }
}

function start() {
  const source = document.getElementById("dashboard-figures");
  if (!root || !source) return;
  const figures = JSON.parse(source.textContent);
  updateFigures(figures);
  const chart = drawChart(figures);
  if (canvas) canvas.dataset.rendered = chart ? "yes" : "no";
  const every = Number(root.dataset.pollMs) || 5000;
  window.setInterval(() => poll(chart), every);
}

start();
