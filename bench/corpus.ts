import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { Locale } from '../src/site/locales.ts';
import { searchableSections } from '../src/site/sections.ts';
import { appCategories } from '../src/site/schema.ts';
import { ui } from '../src/site/ui.ts';
import { pageUrl } from '../src/site/urls.ts';
import { pageBody, rpcBody, type BodyContext, type LinkTarget } from './corpus/body.ts';
import { description, drawTopic, pageTitle, paragraph, phrases, rpcPageTitle, sentence, type Topic } from './corpus/language.ts';
import { planCorpus, siteShape, type CorpusShape, type ProseSection } from './corpus/plan.ts';
import { seededRandom } from './corpus/random.ts';
import { boundedWriter } from './corpus/writer.ts';
import { authors, companyParts, nouns } from './corpus/words.ts';

// A deterministic benchmark site in the project's content format (README "Writing content"):
// `node bench/corpus.ts --pages N [--out dir] [--seed s]`; bench/build.ts and bench/search.ts
// call generateCorpus directly. The same (shape, seed) always gives byte-identical files.

export const projectRoot = resolve(import.meta.dirname, '..');
/** Bumped whenever the generated text changes, so cached corpora are rebuilt. */
const generatorVersion = 1;
export const corpusSummaryFile = '.corpus.json';

export interface CorpusSummary {
  generatorVersion: number;
  shape: CorpusShape;
  pages: number;
  pagesByLocale: Partial<Record<Locale, number>>;
  /** Items in each locale's /api/search/<locale> (blog, guides, case studies, apps). */
  searchEntries: Partial<Record<Locale, number>>;
  sourceBytes: number;
  networks: string[];
}

interface TopicFacts {
  topic: Topic;
  slug: string;
  format: 'md' | 'mdx';
  frontmatter: Record<string, unknown>;
}

const mdxShare: Record<ProseSection, number> = { blog: 0.1, overviews: 0.3, 'case-studies': 0.1, support: 0.2, 'terms-conditions': 0 };
const firstDay = Date.UTC(2019, 0, 1);
const dayMs = 86_400_000;

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Generates the corpus into `contentDir` (emptied first). */
export async function generateCorpus(shape: CorpusShape, contentDir: string): Promise<CorpusSummary> {
  const networkFiles = (await readdir(join(projectRoot, 'content/networks')))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .slice(0, shape.networks);
  const networks = await Promise.all(
    networkFiles.map(async (file) => {
      const source = await readFile(join(projectRoot, 'content/networks', file), 'utf8');
      return { id: file.slice(0, -'.yaml'.length), name: String((parseYaml(source) as { name: string }).name), source };
    }),
  );
  const plan = planCorpus(shape, networks.length);
  const countOf = (locale: Locale, section: ProseSection) => plan.counts.get(`${locale}/${section}`) ?? 0;
  const proseSections = Object.keys(shape.sectionWeights) as ProseSection[];

  const topics = new Map<string, TopicFacts>();
  const topicOf = (section: ProseSection, k: number): TopicFacts => {
    const key = `${section}/${k}`;
    let facts = topics.get(key);
    if (facts) return facts;
    const random = seededRandom(`${shape.seed}/topic/${key}`);
    const topic = drawTopic(random, `${random.pick(companyParts.first)} ${random.pick(companyParts.second)}`);
    const frontmatter: Record<string, unknown> = {};
    if (section === 'blog' || section === 'case-studies') frontmatter.date = new Date(firstDay + random.int(0, 2737) * dayMs).toISOString().slice(0, 10);
    if (section === 'blog') frontmatter.authors = [...new Set(Array.from({ length: random.int(1, 2) }, () => random.pick(authors)))];
    if (section !== 'blog' && section !== 'case-studies') frontmatter.order = k + 1;
    if (section === 'case-studies') frontmatter.company = topic.company;
    frontmatter.tags = [...new Set(Array.from({ length: random.int(1, 3) }, () => slugify(random.pick(nouns).en)))];
    facts = {
      topic,
      slug: `${slugify(`${topic.verb.en} ${topic.adjective.en} ${topic.object.en}`)}-${k + 1}`,
      format: random.chance(mdxShare[section]) ? 'mdx' : 'md',
      frontmatter,
    };
    topics.set(key, facts);
    return facts;
  };
  const linkTo = (locale: Locale, section: ProseSection, k: number): LinkTarget => {
    const facts = topicOf(section, k);
    return { title: pageTitle(section, locale, facts.topic), url: pageUrl(locale, section, facts.slug) };
  };

  await clearCorpusDir(contentDir);
  const writer = boundedWriter(64);
  let sourceBytes = 0;
  const write = (relativePath: string, text: string) => {
    sourceBytes += Buffer.byteLength(text);
    return writer.write(join(contentDir, relativePath), text);
  };
  const page = (frontmatter: Record<string, unknown>, body: string) => `---\n${stringifyYaml(frontmatter, { lineWidth: 0 })}---\n${body}`;

  const summary: CorpusSummary = {
    generatorVersion,
    shape,
    pages: 0,
    pagesByLocale: {},
    searchEntries: {},
    sourceBytes: 0,
    networks: networks.map((n) => n.id),
  };
  for (const locale of plan.locales) {
    const linkable = proseSections.filter((s) => countOf(locale, s) > 0);
    const randomLink = (random: BodyContext['random']) => () => {
      const section = random.pick(linkable);
      return linkTo(locale, section, random.int(0, countOf(locale, section) - 1));
    };

    const homeRandom = seededRandom(`${shape.seed}/home/${locale}`);
    const homeTopic = drawTopic(homeRandom, 'Crucible');
    const homeBody = [paragraph(homeRandom, locale, homeTopic, 3)];
    for (const section of linkable) {
      homeBody.push(`## ${ui[locale].sections[section]}`);
      homeBody.push(
        Array.from({ length: Math.min(5, countOf(locale, section)) }, (_, k) => linkTo(locale, section, k))
          .map((l) => `- [${l.title}](${l.url})`)
          .join('\n'),
      );
    }
    await write(`${locale}/index.md`, page({ title: phrases[locale].home, description: phrases[locale].homeIntro }, `${homeBody.join('\n\n')}\n`));
    let pages = 1;

    for (const section of proseSections) {
      for (let k = 0; k < countOf(locale, section); k++) {
        const facts = topicOf(section, k);
        const random = seededRandom(`${shape.seed}/page/${locale}/${section}/${k}`);
        const context: BodyContext = { random, locale, topic: facts.topic, format: facts.format, link: randomLink(random) };
        const frontmatter = { title: pageTitle(section, locale, facts.topic), description: description(random, locale, facts.topic), ...facts.frontmatter };
        await write(`${locale}/${section}/${facts.slug}.${facts.format}`, page(frontmatter, pageBody(context)));
        pages += 1;
      }
    }
    for (const network of networks) {
      const random = seededRandom(`${shape.seed}/rpc/${locale}/${network.id}`);
      const topic = drawTopic(random, network.name);
      const context: BodyContext = { random, locale, topic, format: 'md', link: randomLink(random) };
      const frontmatter = { title: rpcPageTitle(locale, network.name), description: description(random, locale, topic), network: network.id };
      await write(`${locale}/rpc/${network.id}.md`, page(frontmatter, rpcBody(context)));
      pages += 1;
    }
    summary.pagesByLocale[locale] = pages;
    summary.pages += pages;
    summary.searchEntries[locale] = searchableSections.reduce((n, s) => n + countOf(locale, s), 0) + shape.apps;
  }

  for (const network of networks) await write(`networks/${network.id}.yaml`, network.source);
  for (let i = 0; i < shape.apps; i++) {
    const random = seededRandom(`${shape.seed}/app/${i}`);
    const name = `${random.pick(companyParts.first)}${random.pick(companyParts.second).toLowerCase()}`;
    const slug = `${slugify(name)}-${i + 1}`;
    const topic = drawTopic(random, name);
    const app = {
      name,
      description: sentence(random, 'en', topic),
      url: `https://${slug}.example`,
      icon: '/favicon.svg',
      category: random.pick(appCategories),
    };
    await write(`apps/${slug}.yaml`, stringifyYaml(app, { lineWidth: 0 }));
  }
  await writer.done();
  summary.sourceBytes = sourceBytes;
  // Written last: a corpus without its summary is incomplete and never reused.
  await writeFile(join(contentDir, corpusSummaryFile), `${JSON.stringify(summary, null, 2)}\n`);
  return summary;
}

/** Reuses `contentDir` when it holds a complete corpus of the same shape and generator version. */
export async function ensureCorpus(shape: CorpusShape, contentDir: string): Promise<{ summary: CorpusSummary; reused: boolean }> {
  try {
    const existing = JSON.parse(await readFile(join(contentDir, corpusSummaryFile), 'utf8')) as CorpusSummary;
    if (existing.generatorVersion === generatorVersion && JSON.stringify(existing.shape) === JSON.stringify(shape)) return { summary: existing, reused: true };
  } catch {
    // no usable corpus there yet
  }
  return { summary: await generateCorpus(shape, contentDir), reused: false };
}

/** Empties a previous corpus; refuses to delete a folder that is not one. */
async function clearCorpusDir(contentDir: string): Promise<void> {
  const entries = await readdir(contentDir).catch(() => [] as string[]);
  if (entries.length > 0 && !entries.includes(corpusSummaryFile)) {
    throw new Error(`${contentDir} is not empty and holds no ${corpusSummaryFile}; refusing to overwrite it`);
  }
  await rm(contentDir, { recursive: true, force: true });
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { pages: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string', default: 'crucible' } } });
  const pages = Number(values.pages);
  if (!Number.isInteger(pages) || pages <= 0) throw new Error('usage: node bench/corpus.ts --pages N [--out dir] [--seed s]');
  const out = resolve(values.out ?? join(projectRoot, `bench/out/corpus-${pages}/content`));
  const started = performance.now();
  const summary = await generateCorpus(siteShape(pages, values.seed), out);
  console.log(
    `${summary.pages} pages (${JSON.stringify(summary.pagesByLocale)}), ${(summary.sourceBytes / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms -> ${out}`,
  );
}
