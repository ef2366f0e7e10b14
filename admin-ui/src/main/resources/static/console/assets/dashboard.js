// Dashboard charts (uPlot): answers by tier, traffic and cache hits, tokens and 429s; refreshed every 15 s.
(function () {
  if (typeof uPlot === 'undefined') return;
  function chart(id, series, axes, pick) {
    const el = document.getElementById(id);
    if (!el) return;
    let plot;
    function draw(data) {
      const columns = pick(data, el);
      if (plot) { plot.setData(columns); return; }
      plot = new uPlot({ width: Math.max(320, el.clientWidth), height: 240, series: [{}].concat(series), axes: [{}].concat(axes) }, columns, el);
    }
    function load() {
      fetch(el.dataset.src, { credentials: 'same-origin' }).then(r => r.json()).then(draw).catch(() => {});
    }
    load();
    setInterval(load, 15000);
  }
  const tiers = { F4: '#146c2e', F3: '#0b57d0', F2: '#8e44ad', F1: '#e37400', F0: '#b3261e' };
  chart('answers-by-tier', ['F4', 'F3', 'F2', 'F1', 'F0'].map(t => ({ label: t, stroke: tiers[t], width: 2 })),
    [{ label: 'answers/min' }], data => data);
  // traffic.json: [time, requests/s, cache hit %, 429s/min, tokens/min]
  chart('traffic-chart', [
    { label: 'requests/s', stroke: '#0b57d0', width: 2, scale: 'rps' },
    { label: 'cache hit %', stroke: '#146c2e', width: 2, scale: '%' }],
    [{ label: 'requests/s', scale: 'rps' }, { label: 'hit %', scale: '%', side: 1 }],
    data => [data[0], data[1], data[2]]);
  chart('tokens-chart', [
    { label: 'tokens/min', stroke: '#8e44ad', width: 2, scale: 'tok' },
    { label: 'budget/min', stroke: '#b3261e', width: 1, dash: [6, 4], scale: 'tok' },
    { label: '429s/min', stroke: '#e37400', width: 2, scale: 'n' }],
    [{ label: 'tokens/min', scale: 'tok' }, { label: '429s/min', scale: 'n', side: 1 }],
    (data, el) => {
      const budget = el.dataset.budget ? Number(el.dataset.budget) : null;
      return [data[0], data[4], data[0].map(() => budget), data[3]];
    });
})();
