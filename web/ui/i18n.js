// i18n.js — looking strings up, with no table of its own: {name} placeholders filled from vars,
// and translator() over string tables ({ en: {...}, ko: {...} }).
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
