// The table's preferences, kept per browser (localStorage): how fast cards move, whether a
// card is confirmed before it is played, and whether a forced move (the only legal one)
// plays itself. Nothing here is sent anywhere.

import {h} from './dom.js';
import {KEYS} from './reader.js';

const KEY = 'parlour.prefs';
const DEFAULTS = {speed: 'normal', confirm: false, autoplay: false};
const SPEEDS = [['normal', 'Normal'], ['fast', 'Fast'], ['off', 'No animation']];

/** The preferences as kept (the defaults where none is kept or it is unreadable). */
export function prefs() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || '{}');
    return {...DEFAULTS, ...(kept && typeof kept === 'object' ? kept : {})};
  } catch {
    return {...DEFAULTS};
  }
}

function keep(name, value) {
  const next = {...prefs(), [name]: value};
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // storage refused (private mode, full): the choice lasts for this page only
  }
  applyPrefs(next);
  return next;
}

/** Put the animation speed on the page (style.css reads html[data-speed]). */
export function applyPrefs(p = prefs()) {
  document.documentElement.dataset.speed = SPEEDS.some(([v]) => v === p.speed) ? p.speed : 'normal';
}

/** How long a forced move waits before it plays itself: 0.6 to 1.4 s, drawn afresh each time
 * and the same for every seat, so the pause tells nobody anything. */
export function autoplayDelay() {
  return 600 + Math.floor(Math.random() * 800);
}

/** The "Table settings" box; `changed()` is called after every change. */
export function prefsBox(changed) {
  const p = prefs();
  const box = (name, text, help) => h('label', {class: 'pref'},
    h('input', {type: 'checkbox', name, checked: p[name], onchange: (e) => { keep(name, e.currentTarget.checked); changed(); }}),
    ` ${text}`, h('span', {class: 'muted'}, ` ${help}`));
  const speed = h('select', {name: 'speed', id: 'pref-speed', onchange: (e) => { keep('speed', e.currentTarget.value); changed(); }},
    SPEEDS.map(([value, text]) => h('option', {value, selected: p.speed === value}, text)));
  return h('details', {class: 'prefs'},
    h('summary', {}, 'Table settings'),
    h('p', {class: 'pref'}, h('label', {for: 'pref-speed'}, 'Card animation '), speed),
    box('confirm', 'Confirm before playing', '(a first click picks a card, a second plays it)'),
    box('autoplay', 'Play forced moves for me', '(when only one move is legal, after a short pause)'),
    h('p', {class: 'muted'}, 'Kept in this browser only.'),
    h('p', {class: 'muted keys'}, `Keys that read the table aloud: ${KEYS}.`));
}
