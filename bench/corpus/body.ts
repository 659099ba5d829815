import type { Locale } from '../../src/site/locales.ts';
import { nounPhrase, paragraph, phrases, sentence, topicalHeading, type Topic } from './language.ts';
import type { Random } from './random.ts';
import { rpcMethods } from './words.ts';

// Page bodies: headings, paragraphs with links, inline code and bold text, lists, tables,
// fenced code, images, blockquotes and, in MDX pages, the site's components (<Callout>,
// <Tabs>/<Tab>, <CodeGroup>). Text never contains `{`, `}`, `<` or `>`, so it is valid MDX.

export interface LinkTarget {
  title: string;
  url: string;
}

export interface BodyContext {
  random: Random;
  locale: Locale;
  topic: Topic;
  format: 'md' | 'mdx';
  /** Another generated page of the same locale. */
  link: () => LinkTarget;
}

const seeLink: Record<Locale, (l: LinkTarget) => string> = {
  en: (l) => `See [${l.title}](${l.url}) for details.`,
  es: (l) => `Consulte [${l.title}](${l.url}) para más detalles.`,
  'pt-BR': (l) => `Veja [${l.title}](${l.url}) para mais detalhes.`,
  ja: (l) => `詳しくは[${l.title}](${l.url})を参照してください。`,
  ko: (l) => `자세한 내용은 [${l.title}](${l.url}) 문서를 참고하세요.`,
  'zh-Hans': (l) => `详情请参阅[${l.title}](${l.url})。`,
  'zh-Hant': (l) => `詳情請參閱[${l.title}](${l.url})。`,
};

const callMethod: Record<Locale, (method: string) => string> = {
  en: (m) => `Call \`${m}\` first to check the result.`,
  es: (m) => `Llame primero a \`${m}\` para comprobar el resultado.`,
  'pt-BR': (m) => `Chame \`${m}\` primeiro para conferir o resultado.`,
  ja: (m) => `まず \`${m}\` を呼び出して結果を確認します。`,
  ko: (m) => `먼저 \`${m}\` 메서드를 호출하여 결과를 확인합니다.`,
  'zh-Hans': (m) => `先调用 \`${m}\` 检查结果。`,
  'zh-Hant': (m) => `先呼叫 \`${m}\` 檢查結果。`,
};

const sentenceGap: Record<Locale, string> = { en: ' ', es: ' ', 'pt-BR': ' ', ja: '', ko: ' ', 'zh-Hans': '', 'zh-Hant': '' };

/** A paragraph with some inline markup: a link, inline code or a bold lead. */
function richParagraph(ctx: BodyContext): string {
  const { random, locale, topic } = ctx;
  const parts = [paragraph(random, locale, topic, random.int(2, 4))];
  if (random.chance(0.5)) parts.push(seeLink[locale](ctx.link()));
  if (random.chance(0.35)) parts.push(callMethod[locale](random.pick(rpcMethods)));
  const text = parts.join(sentenceGap[locale]);
  return random.chance(0.2) ? `**${nounPhrase(random, locale)}**: ${text}` : text;
}

function hex(random: Random, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) out += '0123456789abcdef'[random.int(0, 15)];
  return out;
}

type Snippet = { lang: string; title: string; code: string };

function snippet(random: Random): Snippet {
  const method = random.pick(rpcMethods);
  const id = random.int(1, 99);
  switch (random.int(0, 5)) {
    case 0:
      return {
        lang: 'ts',
        title: 'viem',
        code: [
          "import { createPublicClient, http } from 'viem';",
          '',
          'const client = createPublicClient({ transport: http(process.env.CRUCIBLE_RPC_URL) });',
          `const result = await client.request({ method: '${method}', params: [] });`,
          'console.log(result);',
        ].join('\n'),
      };
    case 1:
      return {
        lang: 'bash',
        title: 'curl',
        code: [
          'curl -s -X POST "$CRUCIBLE_RPC_URL" \\',
          "  -H 'Content-Type: application/json' \\",
          `  -d '{"jsonrpc":"2.0","id":${id},"method":"${method}","params":[]}'`,
        ].join('\n'),
      };
    case 2:
      return {
        lang: 'json',
        title: 'response.json',
        code: ['{', '  "jsonrpc": "2.0",', `  "id": ${id},`, `  "result": "0x${hex(random, random.int(4, 64))}"`, '}'].join('\n'),
      };
    case 3:
      return {
        lang: 'solidity',
        title: 'Vault.sol',
        code: [
          '// SPDX-License-Identifier: MIT',
          'pragma solidity ^0.8.24;',
          '',
          `contract Vault${id} {`,
          '    mapping(address => uint256) public balances;',
          '',
          '    function deposit() external payable {',
          '        balances[msg.sender] += msg.value;',
          '    }',
          '}',
        ].join('\n'),
      };
    case 4:
      return {
        lang: 'python',
        title: 'client.py',
        code: [
          'import os',
          'import requests',
          '',
          `payload = {"jsonrpc": "2.0", "id": ${id}, "method": "${method}", "params": []}`,
          'response = requests.post(os.environ["CRUCIBLE_RPC_URL"], json=payload, timeout=10)',
          'print(response.json()["result"])',
        ].join('\n'),
      };
    default:
      return {
        lang: 'yaml',
        title: 'crucible.yaml',
        code: [`method: ${method}`, `retries: ${random.int(1, 5)}`, `timeoutMs: ${random.int(1, 30) * 1000}`, 'network: base-sepolia'].join('\n'),
      };
  }
}

function fence(s: Snippet, withTitle = false): string {
  return `\`\`\`${s.lang}${withTitle ? ` title="${s.title}"` : ''}\n${s.code}\n\`\`\``;
}

function table(ctx: BodyContext): string {
  const { random, locale } = ctx;
  const p = phrases[locale];
  const rows = Array.from({ length: random.int(3, 6) }, () => `| \`${random.pick(rpcMethods)}\` | ${random.int(1, 50) * 10} | ${nounPhrase(random, locale)} |`);
  return [`| ${p.method} | ${p.limit} | ${p.notes} |`, '| --- | ---: | --- |', ...rows].join('\n');
}

function list(ctx: BodyContext, ordered: boolean): string {
  const { random, locale, topic } = ctx;
  return Array.from({ length: random.int(3, 5) }, (_, i) => {
    const marker = ordered ? `${i + 1}.` : '-';
    if (ordered) return `${marker} ${sentence(random, locale, topic)}`;
    if (!random.chance(0.4)) return `${marker} ${nounPhrase(random, locale)}`;
    const target = ctx.link();
    return `${marker} [${target.title}](${target.url})`;
  }).join('\n');
}

const calloutTypes = ['note', 'tip', 'warning', 'danger'] as const;
const installTabs = [
  ['npm', 'npm install viem'],
  ['pnpm', 'pnpm add viem'],
  ['yarn', 'yarn add viem'],
] as const;

function mdxBlock(ctx: BodyContext): string {
  const { random, locale, topic } = ctx;
  switch (random.int(0, 2)) {
    case 0:
      return `<Callout type="${random.pick(calloutTypes)}" title="${nounPhrase(random, locale)}">\n\n${paragraph(random, locale, topic, random.int(1, 3))}\n\n</Callout>`;
    case 1: {
      const tabs = installTabs.slice(0, random.int(2, 3)).map(([label, command]) => `<Tab label="${label}">\n\n\`\`\`bash\n${command}\n\`\`\`\n\n</Tab>`);
      return `<Tabs>\n${tabs.join('\n')}\n</Tabs>`;
    }
    default:
      return `<CodeGroup>\n\n${fence(snippet(random), true)}\n\n${fence(snippet(random), true)}\n\n</CodeGroup>`;
  }
}

function featureBlock(ctx: BodyContext): string {
  const { random, locale, topic } = ctx;
  if (ctx.format === 'mdx' && random.chance(0.45)) return mdxBlock(ctx);
  switch (random.int(0, 6)) {
    case 0:
      return list(ctx, false);
    case 1:
      return list(ctx, true);
    case 2:
      return table(ctx);
    case 3:
    case 4:
      return fence(snippet(random), random.chance(0.3));
    case 5:
      return `![${nounPhrase(random, locale)}](/favicon.svg)`;
    default:
      return `> ${paragraph(random, locale, topic, random.int(1, 2))}`;
  }
}

/** The body of a section page: intro, 3 to 6 headed sections, then related links. */
export function pageBody(ctx: BodyContext): string {
  const { random, locale, topic } = ctx;
  const p = phrases[locale];
  const blocks: string[] = [richParagraph(ctx)];
  const fixedHeadings = [p.beforeYouBegin, p.example, p.limits, p.troubleshooting];
  const sectionCount = random.int(3, 6);
  for (let i = 0; i < sectionCount; i++) {
    blocks.push(`## ${random.chance(0.7) ? topicalHeading(random, locale, topic) : fixedHeadings[i % fixedHeadings.length]}`);
    const paragraphs = random.int(1, 3);
    for (let j = 0; j < paragraphs; j++) blocks.push(richParagraph(ctx));
    blocks.push(featureBlock(ctx));
    if (random.chance(0.3)) blocks.push(`### ${topicalHeading(random, locale, topic)}`, richParagraph(ctx));
  }
  blocks.push(
    `## ${p.nextSteps}`,
    Array.from({ length: random.int(2, 4) }, () => {
      const target = ctx.link();
      return `- [${target.title}](${target.url})`;
    }).join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
}

/** A shorter body for RPC pages: the facts table comes from the network data. */
export function rpcBody(ctx: BodyContext): string {
  const { random, locale, topic } = ctx;
  return [richParagraph(ctx), fence(snippet(random)), `## ${phrases[locale].limits}`, paragraph(random, locale, topic, 2), table(ctx), ''].join('\n\n');
}
