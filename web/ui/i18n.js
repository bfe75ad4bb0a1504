// i18n.js — looking strings up, with no table of its own: {name} placeholders filled from vars,
// translator() over string tables ({ en: {...}, ko: {...} }), and the label lookup every view
// uses (labels given to the element, else the English defaults its class declares).
export function fill(s, vars) {
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] !== undefined ? String(vars[k]) : m)) : s;
}

// t(lang, key, vars) over tables in order: each table in `lang`, then in English; a key found
// nowhere shows as itself.
export function translator(...tables) {
  return (lang, key, vars) => {
    for (const table of tables) {
      const s = table[lang]?.[key] ?? table.en?.[key];
      if (s !== undefined) return fill(s, vars);
    }
    return key;
  };
}

// A view's label: el.labels (given by the page, e.g. Korean) or its class's English default.
export function label(el, key, vars) {
  return fill(el.labels?.[key] ?? el.constructor.labels?.[key] ?? key, vars);
}
