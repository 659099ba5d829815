// Markdown pieces of the pages written from code (the method reference, the local world's page):
// text from code set as Markdown, tables, the page with its frontmatter, and writing the files.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';

/** Text from code as Markdown that reads as written: one line, no markup, table-safe. */
export function markdownText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*[\]<>|]|&(?=#?\w+;)|(?<!\w)_|_(?!\w)/g, '\\$&');
}

/** Inline code. */
export const code = (text: string) => `\`${text}\``;

/** A fenced code block in `language`. */
export const codeBlock = (language: string, lines: readonly string[]) => [`\`\`\`${language}`, ...lines, '```'].join('\n');

/** A GFM table: the header cells, each column's delimiter (`-`, `-:`), then the rows. */
export function markdownTable(header: readonly string[], delimiters: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [header, delimiters, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** A page: YAML frontmatter, then its blocks one blank line apart. */
export function generatedPage(frontmatter: Record<string, unknown>, blocks: readonly string[]): string {
  return `---\n${stringifyYaml(frontmatter, { lineWidth: 0 })}---\n\n${blocks.join('\n\n')}\n`;
}

/** Writes each file (path relative to `root`) with its text; returns the paths written. */
export async function writeGeneratedFiles(root: string, files: ReadonlyArray<{ path: string; text: string }>): Promise<string[]> {
  for (const file of files) {
    await mkdir(dirname(join(root, file.path)), { recursive: true });
    await writeFile(join(root, file.path), file.text);
  }
  return files.map((file) => file.path);
}
