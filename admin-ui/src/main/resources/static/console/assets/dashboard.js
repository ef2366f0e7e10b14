// Answers per minute by fidelity tier (uPlot), refreshed every 15 s.
(function () {
  const el = document.getElementById('answers-by-tier');
  if (!el || typeof uPlot === 'undefined') return;
  const colors = { F4: '#146c2e', F3: '#0b57d0', F2: '#8e44ad', F1: '#e37400', F0: '#b3261e' };
  const series = [{}].concat(['F4', 'F3', 'F2', 'F1', 'F0'].map(t => ({ label: t, stroke: colors[t], width: 2 })));
  let plot;
  function draw(data) {
    if (plot) { plot.setData(data); return; }
    plot = new uPlot({ width: Math.max(320, el.clientWidth), height: 260, series: series, axes: [{}, { label: 'answers/min' }] }, data, el);
  }
  function load() {
    fetch(el.dataset.src, { credentials: 'same-origin' }).then(r => r.json()).then(draw).catch(() => {});
  }
  load();
  setInterval(load, 15000);
})();
