// Cache verification: the held-out precision/recall curve of a pair-verifier version (uPlot), with the
// operating point chosen for each level drawn on it.
(function () {
  if (typeof uPlot === 'undefined') return;
  const el = document.getElementById('pr-curve');
  if (!el) return;
  const colours = { L0: '#146c2e', L1: '#0b57d0', L2: '#8e44ad', L3: '#b3261e' };
  fetch(el.dataset.src, { credentials: 'same-origin' }).then(r => r.json()).then(data => {
    // curve rows: [threshold, precision, recall]; x = recall, ascending
    const rows = data.curve.slice().sort((a, b) => a[2] - b[2]);
    const xs = rows.map(r => r[2]);
    const precision = rows.map(r => r[1]);
    const levels = data.points.filter(p => p.threshold <= 1);
    const pointSeries = levels.map(p => xs.map(x => (Math.abs(x - p.recall) < 1e-9 ? p.precision : null)));
    // a level whose recall is not a curve x gets its own x
    levels.forEach((p, i) => {
      if (!xs.some(x => Math.abs(x - p.recall) < 1e-9)) {
        let at = xs.findIndex(x => x > p.recall);
        if (at < 0) at = xs.length;
        xs.splice(at, 0, p.recall);
        precision.splice(at, 0, null);
        pointSeries.forEach((s, j) => s.splice(at, 0, j === i ? p.precision : null));
      }
    });
    const series = [{ label: 'recall' }, { label: 'precision', stroke: '#444', width: 2, spanGaps: true }]
      .concat(levels.map(p => ({ label: p.level + ' (target ' + p.target + ')', stroke: colours[p.level] || '#000',
        width: 0, points: { show: true, size: 10, fill: colours[p.level] || '#000' } })));
    el.dataset.points = String(levels.length);
    new uPlot({ width: Math.max(320, el.clientWidth), height: 280, scales: { x: { time: false } },
      series: series, axes: [{ label: 'recall' }, { label: 'precision' }] }, [xs, precision].concat(pointSeries), el);
    el.classList.add('drawn');
  }).catch(() => {});
})();
