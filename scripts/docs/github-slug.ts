/**
 * Heading anchors as GitHub makes them, shared by the docs site (VitePress's anchor option) and the
 * link checker, so a `#fragment` that works on GitHub works on the site and is checked once.
 * GitHub's rule (github-slugger): lower-case, drop every character that is not a letter, mark,
 * number, connector punctuation (`_`), space or hyphen, then turn each space into a hyphen — no
 * collapsing, so "a — b" becomes "a--b". Repeated headings get "-1", "-2"… in document order.
 */

const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

/** The anchor GitHub gives a heading whose rendered text is `text`. */
export function githubSlug(text: string): string {
  return text.trim().toLowerCase().replace(DROPPED, '').replace(/ /g, '-');
}

/** Slugs for the headings of one document, in order: the second "Notes" is "notes-1". */
export function uniqueSlugs(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  return texts.map((text) => {
    const base = githubSlug(text);
    let slug = base;
    for (let i = 1; seen.has(slug); i++) slug = `${base}-${i}`;
    seen.add(slug);
    return slug;
  });
}
