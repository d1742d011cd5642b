// Interactive elements smaller than 44 × 44 CSS px, as "tag text WxH" lines.
() => {
  const small = [];
  for (const el of document.querySelectorAll(
      'main a, main button, main input:not([type=hidden]), main select, main textarea, main summary,'
      + ' header a, header button, .skip-link')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;  // not shown
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || el.closest('.visually-hidden')) continue;
    // A radio or checkbox is hit through its label, which is the target.
    let target = box;
    if ((el.type === 'radio' || el.type === 'checkbox') && el.labels && el.labels.length) {
      target = el.labels[0].getBoundingClientRect();
    }
    // Links inside running text are exempt (WCAG 2.5.8 "inline").
    if (el.tagName === 'A' && getComputedStyle(el).display === 'inline'
        && el.closest('p, li, td, dd') && !el.closest('nav')) {
      const parent = el.closest('p, li, td, dd');
      if (parent.textContent.trim().length > el.textContent.trim().length + 2) continue;
    }
    if (target.height < 44 || target.width < 44) {
      small.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.value || el.name || '').trim().slice(0, 30)}" ${Math.round(target.width)}x${Math.round(target.height)}`);
    }
  }
  return small;
}
