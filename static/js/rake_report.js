// The rake report's charts (accounting): rake and tournament fees per day, rake per stakes and
// per game, drawn with Chart.js (static/vendor/chart.js, loaded before this module as a
// classic script: window.Chart). The figures come from the page's JSON data block
// "rake-chart-data" (the Content-Security-Policy allows no inline script), in dollars.

const FELT = "#1f6f4a";
const GOLD = "#c9a227";
const PALETTE = [FELT, GOLD, "#3b6ea8", "#a8443b", "#6b4fa0", "#3b9a9a", "#8a8a3b", "#555"];

function money(value) {
  return `$${Number(value).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

const moneyAxis = {
  beginAtZero: true,
  ticks: { callback: (value) => money(value) },
};

const tooltips = {
  callbacks: {
    label: (item) => `${item.dataset.label || item.label}: ${money(item.parsed.y ?? item.parsed)}`,
  },
};

function draw(Chart, canvas, config) {
  if (!canvas) return null;
  return new Chart(canvas, {
    ...config,
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      ...config.options,
    },
  });
}

export function drawRakeCharts(Chart, data) {
  const charts = [];
  charts.push(
    draw(Chart, document.getElementById("chart-rake-per-day"), {
      type: "bar",
      data: {
        labels: data.days.labels,
        datasets: [
          { label: "Rake", data: data.days.rake, backgroundColor: FELT },
          { label: "Tournament fees", data: data.days.fees, backgroundColor: GOLD },
        ],
      },
      options: {
        scales: { x: { stacked: true }, y: { ...moneyAxis, stacked: true } },
        plugins: { tooltip: tooltips },
      },
    }),
  );
  charts.push(
    draw(Chart, document.getElementById("chart-rake-per-stakes"), {
      type: "bar",
      data: {
        labels: data.stakes.labels,
        datasets: [{ label: "Rake", data: data.stakes.rake, backgroundColor: FELT }],
      },
      options: {
        indexAxis: "y",
        scales: { x: moneyAxis },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (item) => `Rake: ${money(item.parsed.x)}` } },
        },
      },
    }),
  );
  charts.push(
    draw(Chart, document.getElementById("chart-rake-per-game"), {
      type: "doughnut",
      data: {
        labels: data.games.labels,
        datasets: [{ label: "Rake", data: data.games.rake, backgroundColor: PALETTE }],
      },
      options: {
        plugins: {
          legend: { position: "right" },
          tooltip: { callbacks: { label: (item) => `${item.label}: ${money(item.parsed)}` } },
        },
      },
    }),
  );
  return charts.filter(Boolean);
}

const block = document.getElementById("rake-chart-data");
if (block && window.Chart) {
  const charts = drawRakeCharts(window.Chart, JSON.parse(block.textContent));
  document.body.dataset.chartsDrawn = String(charts.length);
}
