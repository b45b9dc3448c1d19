// Reads a Mermaid flowchart (the file named first) with Mermaid's own parser, under a DOM that
// jsdom provides, and prints what it read as one JSON line: its nodes and edges, their labels
// with Mermaid's entity codes (`#35;`) decoded, or the parser's error.
// Run from a directory whose node_modules holds mermaid and jsdom (tests/hostile.rs does).
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');

// Mermaid keeps `#N;` as a placeholder until it draws: decode it as a browser would.
const decoded = (text) =>
  String(text ?? '').replace(/ﬂ°°(\d+)¶ß/g, (_, code) => String.fromCodePoint(Number(code)));

const text = readFileSync(process.argv[2], 'utf8');
try {
  await mermaid.parse(text);
  const { db } = await mermaid.mermaidAPI.getDiagramFromText(text);
  const nodes = [...db.getVertices()].map(([id, node]) => [id, decoded(node.text)]);
  const edges = db.getEdges().map((edge) => [edge.start, edge.end, decoded(edge.text)]);
  console.log(JSON.stringify({ ok: true, nodes, edges }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error?.message ?? error) }));
}
