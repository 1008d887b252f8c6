// The tabs: a button with role=tab and data-tab="NAME" shows the panel with data-panel="NAME" and hides the
// others. Found by their data, not by their ids, so that a tab or a panel is named in one place.

/** Show `tab`'s panel and hide the others; only the selected tab is in the Tab order. */
export function selectTab(tab) {
  for (const other of document.querySelectorAll("[role=tab]")) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    panelOf(other.dataset.tab).hidden = !selected;
  }
}

/** Select the tab named `name` (its data-tab), as a click on it would. */
export function showTab(name) {
  selectTab(document.querySelector(`[role=tab][data-tab="${name}"]`));
}

/** The panel of the tab named `name`. */
function panelOf(name) {
  return document.querySelector(`[role=tabpanel][data-panel="${name}"]`);
}

/** The name of the tab whose panel holds `node` (a button of that tab). */
export function tabOf(node) {
  return node.closest("[role=tabpanel][data-panel]").dataset.panel;
}

/** The arrow keys move between tabs, as the ARIA tab pattern has it. */
export function tabKeys(event) {
  const tabs = [...document.querySelectorAll("[role=tab]")];
  const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
  if (step === undefined) return;
  const next = tabs[(tabs.indexOf(event.currentTarget) + step + tabs.length) % tabs.length];
  selectTab(next);
  next.focus();
}
