// HTML and <script> escaping for the documentation pages: every value the server writes into a page
// (titles, file names, configuration) passes through here, so none of it can open a tag or end a script.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/**
 * JSON that is safe inside `<script type="application/json">`: `<` is written as `\u003c`, so the text can
 * never contain `</script>` or `<!--`, and U+2028/U+2029 are escaped as in any embedded JSON.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
