// Bot replies are markdown (the grounded answerer writes headings, lists and code; a model may too).
// marked renders them and DOMPurify removes anything active (scripts, event handlers, javascript:
// links), because a reply quotes synced rows that anyone with a channel key could have written.
import DOMPurify from 'dompurify';
import { marked } from 'marked';

export function Markdown({ text, className }: { text: string; className?: string }) {
  const html = DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: false }));
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
