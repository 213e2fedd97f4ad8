// The one-time code field: a pasted or autofilled code keeps only its digits ("123 456" → "123456"; the
// field's maxlength would cut a pasted "123 456" to "123 45", so a paste is read whole), and the form submits
// itself once six digits are in. The resend timer counts down the wait the send limits set and
// enables "Send a new code" when it ends. Without this script the page works the same, by hand.
(() => {
  const input = document.querySelector('[data-code-form] input[name="code"]');
  if (input) {
    // A short pause before the automatic submit: a Verify click or Enter in that moment submits once, not twice.
    let sent = false;
    let timer;
    input.form.addEventListener('submit', () => {
      sent = true;
      clearTimeout(timer);
    });
    const take = (text) => {
      const digits = text.replace(/\D/g, '').slice(0, 6);
      if (digits !== input.value) input.value = digits;
      clearTimeout(timer);
      if (digits.length === 6 && !sent) timer = setTimeout(() => sent || input.form.requestSubmit(), 500);
    };
    input.addEventListener('input', () => take(input.value));
    input.addEventListener('paste', (event) => {
      const pasted = event.clipboardData?.getData('text') ?? '';
      if (!/\d/.test(pasted)) return;
      event.preventDefault();
      take(pasted);
    });
    // This script is deferred: a code typed or autofilled before it ran (a slow network) still submits itself.
    // A value the browser put back on Back/Forward is left alone: that code was sent before.
    const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
    if (input.value && navigation?.type !== 'back_forward') take(input.value);
  }

  for (const note of document.querySelectorAll('[data-resend-wait]')) {
    const button = note.closest('form')?.querySelector('button');
    const endsAt = Date.now() + Number(note.dataset.resendWait) * 1000;
    const template = note.textContent;
    const clock = /\d+:\d{2}/;
    const tick = () => {
      const left = Math.ceil((endsAt - Date.now()) / 1000);
      if (left <= 0) {
        note.hidden = true;
        if (button) button.disabled = false;
        return;
      }
      note.textContent = template.replace(
        clock,
        `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`,
      );
      setTimeout(tick, 1000);
    };
    tick();
  }
})();
