// The QR page's countdown: the seconds left to open this code's link on a phone (the server's open time, from
// data-open-by), counted down once a second in the page's own words. When it reaches 0 the page's wait
// (flow-wait.js) follows the flow as the server decides.
(() => {
  const note = document.querySelector('[data-open-by]');
  if (!note) return;
  const openBy = Number(note.dataset.openBy);
  const template = note.textContent;
  const tick = () => {
    const left = Math.max(0, Math.ceil((openBy - Date.now()) / 1000));
    note.textContent = template.replace(/\d+/, String(left));
    if (left > 0) setTimeout(tick, 1000);
  };
  tick();
})();
