// The game site's index page: the slider over every turn's map, and a chart per measure,
// each marking the turn the slider shows. Its data is the page's own JSON (#site-data);
// Chart.js (assets/chart.umd.min.js) draws the charts.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("site-data").textContent);
  var drawn = [];

  // A vertical line at the turn the slider shows (options.plugins.shownTurn.index).
  var shownTurn = {
    id: "shownTurn",
    afterDatasetsDraw: function (chart, args, options) {
      if (options.index === undefined || options.index === null) {
        return;
      }
      var x = chart.scales.x.getPixelForValue(options.index);
      var area = chart.chartArea;
      var ctx = chart.ctx;
      ctx.save();
      ctx.strokeStyle = "rgba(29, 35, 43, 0.45)";
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(x, area.top);
      ctx.lineTo(x, area.bottom);
      ctx.stroke();
      ctx.restore();
    }
  };

  function charts() {
    if (typeof Chart === "undefined") {
      return;
    }
    var canvases = document.querySelectorAll("canvas[data-chart]");
    Array.prototype.forEach.call(canvases, function (canvas) {
      var chart = data.charts[Number(canvas.getAttribute("data-chart"))];
      drawn.push(new Chart(canvas, {
        type: "line",
        plugins: [shownTurn],
        data: {
          labels: chart.ticks,
          datasets: chart.series.map(function (line) {
            return {
              label: line.name,
              data: line.values,
              borderColor: line.colour,
              backgroundColor: line.colour,
              spanGaps: false,
              tension: 0
            };
          })
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          interaction: { mode: "index", intersect: false },
          plugins: {
            shownTurn: { index: data.moments.length - 1 },
            legend: { position: "bottom" },
            tooltip: { callbacks: { title: function (items) { return chart.labels[items[0].dataIndex]; } } }
          },
          scales: {
            x: { title: { display: true, text: "after turn" } },
            y: { beginAtZero: true }
          }
        }
      }));
    });
  }

  function slider() {
    var input = document.getElementById("turn-slider");
    if (!input) {
      return;
    }
    var map = document.getElementById("map");
    var mapLink = document.getElementById("map-link");
    var noMap = document.getElementById("no-map");
    var caption = document.getElementById("map-caption");
    var report = document.getElementById("map-report");
    var previous = document.getElementById("previous");
    var next = document.getElementById("next");
    var last = data.moments.length - 1;

    function show(at) {
      var moment = data.moments[at];
      input.value = String(at);
      input.setAttribute("aria-valuetext", moment.caption);
      caption.textContent = moment.caption;
      if (moment.map) {
        map.src = moment.map;
        mapLink.href = moment.map;
        map.alt = moment.alt;
      }
      map.hidden = !moment.map;
      noMap.hidden = Boolean(moment.map);
      report.hidden = !moment.report;
      report.href = moment.report || "index.html";
      previous.disabled = at === 0;
      next.disabled = at === last;
      drawn.forEach(function (chart) {
        chart.options.plugins.shownTurn.index = at;
        chart.update("none");
      });
    }

    input.addEventListener("input", function () { show(Number(input.value)); });
    previous.addEventListener("click", function () { show(Math.max(0, Number(input.value) - 1)); });
    next.addEventListener("click", function () { show(Math.min(last, Number(input.value) + 1)); });
    show(last);
  }

  charts();
  slider();
}());
