import type { Locale } from '../../src/site/locales.ts';
import type { Section } from '../../src/site/sections.ts';
import type { Random } from './random.ts';
import { adjectives, nouns, verbs, type Adjective, type Noun, type Verb } from './words.ts';

// Grammar of the corpus: sentences, titles, descriptions and headings in each locale, built
// from the parallel vocabulary in words.ts. Spanish and Portuguese agree articles and
// adjectives with the noun's gender; Korean particles follow the last syllable's final consonant.

/** The concepts of one page, drawn once per topic so a page and its translations match. */
export interface Topic {
  verb: Verb;
  adjective: Adjective;
  object: Noun;
  other: Noun;
  company: string;
}

export function drawTopic(random: Random, company: string): Topic {
  return { verb: random.pick(verbs), adjective: random.pick(adjectives), object: random.pick(nouns), other: random.pick(nouns), company };
}

/** Concepts for one sentence of body text. */
interface Clause {
  subject: Noun;
  verb: Verb;
  adjective: Adjective;
  object: Noun;
  other: Noun;
}

function drawClause(random: Random, topic: Topic): Clause {
  // Bodies stay near their topic: half the nouns and verbs are the page's own.
  return {
    subject: random.pick(nouns),
    verb: random.chance(0.4) ? topic.verb : random.pick(verbs),
    adjective: random.pick(adjectives),
    object: random.chance(0.5) ? topic.object : random.pick(nouns),
    other: random.chance(0.3) ? topic.other : random.pick(nouns),
  };
}

// Spanish and Portuguese articles, adjectives and contractions.
const esDef = (n: Noun) => `${n.es.gender === 'f' ? 'la' : 'el'} ${n.es.word}`;
const esIndef = (n: Noun) => `${n.es.gender === 'f' ? 'una' : 'un'} ${n.es.word}`;
const esAdj = (a: Adjective, n: Noun) => a.es[n.es.gender === 'f' ? 1 : 0];
const esDe = (n: Noun) => (n.es.gender === 'f' ? `de la ${n.es.word}` : `del ${n.es.word}`);
const ptDef = (n: Noun) => `${n.pt.gender === 'f' ? 'a' : 'o'} ${n.pt.word}`;
const ptIndef = (n: Noun) => `${n.pt.gender === 'f' ? 'uma' : 'um'} ${n.pt.word}`;
const ptAdj = (a: Adjective, n: Noun) => a.pt[n.pt.gender === 'f' ? 1 : 0];
const ptDe = (n: Noun) => `${n.pt.gender === 'f' ? 'da' : 'do'} ${n.pt.word}`;
const capitalize = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** Korean particle pairs by whether the last Hangul syllable has a final consonant (batchim). */
function hasBatchim(word: string): boolean {
  const code = word.charCodeAt(word.length - 1);
  return code >= 0xac00 && code <= 0xd7a3 ? (code - 0xac00) % 28 !== 0 : false;
}
const koTopic = (w: string) => `${w}${hasBatchim(w) ? '은' : '는'}`;
const koObject = (w: string) => `${w}${hasBatchim(w) ? '을' : '를'}`;
const koSubject = (w: string) => `${w}${hasBatchim(w) ? '이' : '가'}`;

type SentenceTemplate = (c: Clause) => string;

const sentenceTemplates: Record<Locale, SentenceTemplate[]> = {
  en: [
    (c) => `The ${c.subject.en} can ${c.verb.en} the ${c.adjective.en} ${c.object.en} in a single call.`,
    (c) => `Use the ${c.subject.en} to ${c.verb.en} each ${c.object.en} before the ${c.other.en} changes.`,
    (c) => `For a ${c.adjective.en} ${c.object.en}, the ${c.subject.en} retries the ${c.other.en} automatically.`,
    (c) => `Every ${c.object.en} has a ${c.adjective.en} ${c.other.en} that the ${c.subject.en} checks.`,
    (c) => `You can ${c.verb.en} the ${c.object.en} from the dashboard or through the API.`,
    (c) => `Most teams ${c.verb.en} the ${c.object.en} once and reuse the ${c.other.en} for later requests.`,
    (c) => `If the ${c.other.en} is missing, the ${c.subject.en} returns an error that names the ${c.object.en}.`,
    (c) => `A ${c.adjective.en} ${c.object.en} keeps the ${c.other.en} predictable under load.`,
  ],
  es: [
    (c) => `${capitalize(esDef(c.subject))} puede ${c.verb.es[0]} ${esDef(c.object)} ${esAdj(c.adjective, c.object)} en una sola llamada.`,
    (c) => `Use ${esDef(c.subject)} para ${c.verb.es[0]} cada ${c.object.es.word} antes de que cambie ${esDef(c.other)}.`,
    (c) => `Para ${esIndef(c.object)} ${esAdj(c.adjective, c.object)}, ${esDef(c.subject)} reintenta la operación automáticamente.`,
    (c) => `Cada ${c.object.es.word} tiene ${esIndef(c.other)} ${esAdj(c.adjective, c.other)} que ${esDef(c.subject)} revisa.`,
    (c) => `También puede ${c.verb.es[0]} ${esDef(c.object)} desde el panel o a través de la API.`,
    (c) => `La mayoría de los equipos ${c.verb.es[1]} ${esDef(c.object)} una vez y reutiliza el valor ${esDe(c.other)}.`,
    (c) => `Si falta ${esDef(c.other)}, ${esDef(c.subject)} devuelve un error que indica ${esDef(c.object)}.`,
    (c) => `Con ${esIndef(c.object)} ${esAdj(c.adjective, c.object)}, el comportamiento ${esDe(c.other)} es más predecible.`,
  ],
  'pt-BR': [
    (c) => `${capitalize(ptDef(c.subject))} pode ${c.verb.pt[0]} ${ptDef(c.object)} ${ptAdj(c.adjective, c.object)} em uma única chamada.`,
    (c) => `Use ${ptDef(c.subject)} para ${c.verb.pt[0]} cada ${c.object.pt.word} antes que ${ptDef(c.other)} mude.`,
    (c) => `Para ${ptIndef(c.object)} ${ptAdj(c.adjective, c.object)}, ${ptDef(c.subject)} tenta a operação novamente sem intervenção.`,
    (c) => `Cada ${c.object.pt.word} tem ${ptIndef(c.other)} ${ptAdj(c.adjective, c.other)} que ${ptDef(c.subject)} verifica.`,
    (c) => `Também é possível ${c.verb.pt[0]} ${ptDef(c.object)} pelo painel ou pela API.`,
    (c) => `A maioria das equipes ${c.verb.pt[1]} ${ptDef(c.object)} uma vez e reaproveita o valor ${ptDe(c.other)}.`,
    (c) => `Se faltar ${ptDef(c.other)}, ${ptDef(c.subject)} retorna um erro que identifica ${ptDef(c.object)}.`,
    (c) => `Com ${ptIndef(c.object)} ${ptAdj(c.adjective, c.object)}, o comportamento ${ptDe(c.other)} fica mais previsível.`,
  ],
  ja: [
    (c) => `${c.subject.ja}は${c.adjective.ja}${c.object.ja}を1回の呼び出しで${c.verb.ja}します。`,
    (c) => `${c.other.ja}が変わる前に、${c.subject.ja}を使って各${c.object.ja}を${c.verb.ja}してください。`,
    (c) => `${c.adjective.ja}${c.object.ja}の場合、${c.subject.ja}は${c.other.ja}を自動的に再試行します。`,
    (c) => `各${c.object.ja}には${c.adjective.ja}${c.other.ja}があり、${c.subject.ja}がそれを確認します。`,
    (c) => `${c.object.ja}はダッシュボードまたはAPIから${c.verb.ja}できます。`,
    (c) => `多くのチームは${c.object.ja}を一度${c.verb.ja}し、${c.other.ja}を後続のリクエストで再利用しています。`,
    (c) => `${c.other.ja}がない場合、${c.subject.ja}は${c.object.ja}を示すエラーを返します。`,
    (c) => `${c.adjective.ja}${c.object.ja}を使うと、負荷が高いときでも${c.other.ja}が安定します。`,
  ],
  ko: [
    (c) => `${koTopic(c.subject.ko)} ${c.adjective.ko} ${koObject(c.object.ko)} 한 번의 호출로 ${c.verb.ko}합니다.`,
    (c) => `${koSubject(c.other.ko)} 바뀌기 전에 ${koObject(c.subject.ko)} 사용하여 각 ${koObject(c.object.ko)} ${c.verb.ko}하세요.`,
    (c) => `${c.adjective.ko} ${c.object.ko}의 경우 ${koTopic(c.subject.ko)} ${koObject(c.other.ko)} 자동으로 다시 시도합니다.`,
    (c) => `각 ${c.object.ko}에는 ${c.adjective.ko} ${koSubject(c.other.ko)} 있으며 ${koSubject(c.subject.ko)} 이를 확인합니다.`,
    (c) => `${koObject(c.object.ko)} 대시보드나 API에서 ${c.verb.ko}할 수 있습니다.`,
    (c) => `대부분의 팀은 ${koObject(c.object.ko)} 한 번 ${c.verb.ko}하고 이후 요청에서 ${koObject(c.other.ko)} 재사용합니다.`,
    (c) => `${koSubject(c.other.ko)} 없으면 ${koTopic(c.subject.ko)} ${koObject(c.object.ko)} 알려 주는 오류를 반환합니다.`,
    (c) => `${c.adjective.ko} ${koObject(c.object.ko)} 사용하면 부하가 높을 때도 ${koSubject(c.other.ko)} 안정적입니다.`,
  ],
  'zh-Hans': [
    (c) => `${c.subject.zhHans}可以在一次调用中${c.verb.zhHans}${c.adjective.zhHans}${c.object.zhHans}。`,
    (c) => `在${c.other.zhHans}发生变化之前，请使用${c.subject.zhHans}${c.verb.zhHans}每个${c.object.zhHans}。`,
    (c) => `对于${c.adjective.zhHans}${c.object.zhHans}，${c.subject.zhHans}会自动重试${c.other.zhHans}。`,
    (c) => `每个${c.object.zhHans}都有一个${c.adjective.zhHans}${c.other.zhHans}，由${c.subject.zhHans}负责检查。`,
    (c) => `你可以在仪表板中或通过 API ${c.verb.zhHans}${c.object.zhHans}。`,
    (c) => `大多数团队只${c.verb.zhHans}一次${c.object.zhHans}，并在后续请求中复用${c.other.zhHans}。`,
    (c) => `如果缺少${c.other.zhHans}，${c.subject.zhHans}会返回一个指出${c.object.zhHans}的错误。`,
    (c) => `使用${c.adjective.zhHans}${c.object.zhHans}可以让${c.other.zhHans}在高负载下保持稳定。`,
  ],
  'zh-Hant': [
    (c) => `${c.subject.zhHant}可以在一次呼叫中${c.verb.zhHant}${c.adjective.zhHant}${c.object.zhHant}。`,
    (c) => `在${c.other.zhHant}發生變化之前，請使用${c.subject.zhHant}${c.verb.zhHant}每個${c.object.zhHant}。`,
    (c) => `對於${c.adjective.zhHant}${c.object.zhHant}，${c.subject.zhHant}會自動重試${c.other.zhHant}。`,
    (c) => `每個${c.object.zhHant}都有一個${c.adjective.zhHant}${c.other.zhHant}，由${c.subject.zhHant}負責檢查。`,
    (c) => `你可以在儀表板中或透過 API ${c.verb.zhHant}${c.object.zhHant}。`,
    (c) => `大多數團隊只${c.verb.zhHant}一次${c.object.zhHant}，並在後續請求中重複使用${c.other.zhHant}。`,
    (c) => `如果缺少${c.other.zhHant}，${c.subject.zhHant}會傳回一個指出${c.object.zhHant}的錯誤。`,
    (c) => `使用${c.adjective.zhHant}${c.object.zhHant}可以讓${c.other.zhHant}在高負載下保持穩定。`,
  ],
};

/** CJK sentences follow each other without a space. */
const joiner: Record<Locale, string> = { en: ' ', es: ' ', 'pt-BR': ' ', ja: '', ko: ' ', 'zh-Hans': '', 'zh-Hant': '' };

export function sentence(random: Random, locale: Locale, topic: Topic): string {
  return random.pick(sentenceTemplates[locale])(drawClause(random, topic));
}

export function paragraph(random: Random, locale: Locale, topic: Topic, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(random, locale, topic)).join(joiner[locale]);
}

type TitleTemplate = (t: Topic) => string;

const titleTemplates: Record<Exclude<Section, 'rpc'>, Record<Locale, TitleTemplate>> = {
  overviews: {
    en: (t) => `How to ${t.verb.en} ${t.adjective.en} ${t.object.en} data with the ${t.other.en} API`,
    es: (t) => `Cómo ${t.verb.es[0]} ${esDef(t.object)} ${esAdj(t.adjective, t.object)} con la API ${esDe(t.other)}`,
    'pt-BR': (t) => `Como ${t.verb.pt[0]} ${ptDef(t.object)} ${ptAdj(t.adjective, t.object)} com a API ${ptDe(t.other)}`,
    ja: (t) => `${t.other.ja} APIで${t.adjective.ja}${t.object.ja}を${t.verb.ja}する方法`,
    ko: (t) => `${t.other.ko} API로 ${t.adjective.ko} ${koObject(t.object.ko)} ${t.verb.ko}하는 방법`,
    'zh-Hans': (t) => `如何使用${t.other.zhHans} API ${t.verb.zhHans}${t.adjective.zhHans}${t.object.zhHans}`,
    'zh-Hant': (t) => `如何使用${t.other.zhHant} API ${t.verb.zhHant}${t.adjective.zhHant}${t.object.zhHant}`,
  },
  blog: {
    en: (t) => `Introducing ${t.adjective.en} ${t.object.en} support for every ${t.other.en}`,
    es: (t) => `Presentamos ${esDef(t.object)} ${esAdj(t.adjective, t.object)} para cada ${t.other.es.word}`,
    'pt-BR': (t) => `Apresentamos ${ptDef(t.object)} ${ptAdj(t.adjective, t.object)} para cada ${t.other.pt.word}`,
    ja: (t) => `すべての${t.other.ja}で${t.adjective.ja}${t.object.ja}に対応しました`,
    ko: (t) => `모든 ${t.other.ko}에서 ${t.adjective.ko} ${t.object.ko} 지원을 시작합니다`,
    'zh-Hans': (t) => `所有${t.other.zhHans}现已支持${t.adjective.zhHans}${t.object.zhHans}`,
    'zh-Hant': (t) => `所有${t.other.zhHant}現已支援${t.adjective.zhHant}${t.object.zhHant}`,
  },
  'case-studies': {
    en: (t) => `How ${t.company} ${verbThirdPerson(t.verb.en)} ${t.object.en} data with Crucible`,
    es: (t) => `Cómo ${t.company} ${t.verb.es[1]} ${esDef(t.object)} con Crucible`,
    'pt-BR': (t) => `Como a ${t.company} ${t.verb.pt[1]} ${ptDef(t.object)} com a Crucible`,
    ja: (t) => `${t.company}がCrucibleで${t.object.ja}を${t.verb.ja}した方法`,
    ko: (t) => `${koSubject(t.company)} Crucible로 ${koObject(t.object.ko)} ${t.verb.ko}한 방법`,
    'zh-Hans': (t) => `${t.company}如何借助 Crucible ${t.verb.zhHans}${t.object.zhHans}`,
    'zh-Hant': (t) => `${t.company}如何藉助 Crucible ${t.verb.zhHant}${t.object.zhHant}`,
  },
  support: {
    en: (t) => `Troubleshooting ${t.adjective.en} ${t.object.en} and ${t.other.en} errors`,
    es: (t) => `Solución de errores ${esDe(t.object)} y ${esDe(t.other)}`,
    'pt-BR': (t) => `Solução de erros ${ptDe(t.object)} e ${ptDe(t.other)}`,
    ja: (t) => `${t.object.ja}と${t.other.ja}のエラーを解決する`,
    ko: (t) => `${t.object.ko} 및 ${t.other.ko} 오류 해결`,
    'zh-Hans': (t) => `解决${t.object.zhHans}和${t.other.zhHans}错误`,
    'zh-Hant': (t) => `解決${t.object.zhHant}和${t.other.zhHant}錯誤`,
  },
  'terms-conditions': {
    en: (t) => `Terms for ${t.object.en} and ${t.other.en} services`,
    es: (t) => `Términos de los servicios ${esDe(t.object)} y ${esDe(t.other)}`,
    'pt-BR': (t) => `Termos dos serviços ${ptDe(t.object)} e ${ptDe(t.other)}`,
    ja: (t) => `${t.object.ja}および${t.other.ja}サービスの利用規約`,
    ko: (t) => `${t.object.ko} 및 ${t.other.ko} 서비스 약관`,
    'zh-Hans': (t) => `${t.object.zhHans}与${t.other.zhHans}服务条款`,
    'zh-Hant': (t) => `${t.object.zhHant}與${t.other.zhHant}服務條款`,
  },
};

function verbThirdPerson(verb: string): string {
  if (/(s|sh|ch|x)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

export function pageTitle(section: Exclude<Section, 'rpc'>, locale: Locale, topic: Topic): string {
  return capitalize(titleTemplates[section][locale](topic));
}

const rpcTitle: Record<Locale, (name: string) => string> = {
  en: (name) => `${name} RPC endpoint`,
  es: (name) => `Endpoint RPC de ${name}`,
  'pt-BR': (name) => `Endpoint RPC da ${name}`,
  ja: (name) => `${name} RPCエンドポイント`,
  ko: (name) => `${name} RPC 엔드포인트`,
  'zh-Hans': (name) => `${name} RPC 端点`,
  'zh-Hant': (name) => `${name} RPC 端點`,
};

export function rpcPageTitle(locale: Locale, networkName: string): string {
  return rpcTitle[locale](networkName);
}

/** One sentence under 320 characters. */
export function description(random: Random, locale: Locale, topic: Topic): string {
  return sentence(random, locale, topic);
}

/** Section headings that recur across documentation, by locale. */
export const phrases: Record<
  Locale,
  {
    beforeYouBegin: string;
    limits: string;
    troubleshooting: string;
    nextSteps: string;
    example: string;
    related: string;
    parameter: string;
    type: string;
    notes: string;
    method: string;
    limit: string;
    home: string;
    homeIntro: string;
    seeAlso: string;
  }
> = {
  en: {
    beforeYouBegin: 'Before you begin',
    limits: 'Limits',
    troubleshooting: 'Troubleshooting',
    nextSteps: 'Next steps',
    example: 'Example',
    related: 'Related pages',
    parameter: 'Parameter',
    type: 'Type',
    notes: 'Notes',
    method: 'Method',
    limit: 'Limit',
    home: 'Crucible developer platform',
    homeIntro: 'Guides, posts and references for building on Crucible.',
    seeAlso: 'See also',
  },
  es: {
    beforeYouBegin: 'Antes de empezar',
    limits: 'Límites',
    troubleshooting: 'Solución de problemas',
    nextSteps: 'Próximos pasos',
    example: 'Ejemplo',
    related: 'Páginas relacionadas',
    parameter: 'Parámetro',
    type: 'Tipo',
    notes: 'Notas',
    method: 'Método',
    limit: 'Límite',
    home: 'Plataforma para desarrolladores Crucible',
    homeIntro: 'Guías, artículos y referencias para construir con Crucible.',
    seeAlso: 'Consulte también',
  },
  'pt-BR': {
    beforeYouBegin: 'Antes de começar',
    limits: 'Limites',
    troubleshooting: 'Solução de problemas',
    nextSteps: 'Próximos passos',
    example: 'Exemplo',
    related: 'Páginas relacionadas',
    parameter: 'Parâmetro',
    type: 'Tipo',
    notes: 'Observações',
    method: 'Método',
    limit: 'Limite',
    home: 'Plataforma de desenvolvedores Crucible',
    homeIntro: 'Guias, artigos e referências para construir com a Crucible.',
    seeAlso: 'Veja também',
  },
  ja: {
    beforeYouBegin: '始める前に',
    limits: '制限',
    troubleshooting: 'トラブルシューティング',
    nextSteps: '次のステップ',
    example: '例',
    related: '関連ページ',
    parameter: 'パラメーター',
    type: '型',
    notes: '備考',
    method: 'メソッド',
    limit: '上限',
    home: 'Crucible 開発者プラットフォーム',
    homeIntro: 'Crucible で開発するためのガイド、記事、リファレンス。',
    seeAlso: '関連項目',
  },
  ko: {
    beforeYouBegin: '시작하기 전에',
    limits: '제한',
    troubleshooting: '문제 해결',
    nextSteps: '다음 단계',
    example: '예시',
    related: '관련 페이지',
    parameter: '매개변수',
    type: '유형',
    notes: '참고',
    method: '메서드',
    limit: '한도',
    home: 'Crucible 개발자 플랫폼',
    homeIntro: 'Crucible로 개발하기 위한 가이드, 글, 참고 자료입니다.',
    seeAlso: '함께 보기',
  },
  'zh-Hans': {
    beforeYouBegin: '开始之前',
    limits: '限制',
    troubleshooting: '故障排除',
    nextSteps: '后续步骤',
    example: '示例',
    related: '相关页面',
    parameter: '参数',
    type: '类型',
    notes: '说明',
    method: '方法',
    limit: '限额',
    home: 'Crucible 开发者平台',
    homeIntro: '在 Crucible 上构建所需的指南、文章和参考资料。',
    seeAlso: '另请参阅',
  },
  'zh-Hant': {
    beforeYouBegin: '開始之前',
    limits: '限制',
    troubleshooting: '疑難排解',
    nextSteps: '後續步驟',
    example: '範例',
    related: '相關頁面',
    parameter: '參數',
    type: '類型',
    notes: '說明',
    method: '方法',
    limit: '限額',
    home: 'Crucible 開發者平台',
    homeIntro: '在 Crucible 上建置所需的指南、文章與參考資料。',
    seeAlso: '另請參閱',
  },
};

/** A topical heading: "Fetch the token", 「トークンを取得する」. */
export function topicalHeading(random: Random, locale: Locale, topic: Topic): string {
  const verb = random.chance(0.5) ? topic.verb : random.pick(verbs);
  const object = random.chance(0.5) ? topic.object : random.pick(nouns);
  switch (locale) {
    case 'en':
      return `${capitalize(verb.en)} the ${object.en}`;
    case 'es':
      return `${capitalize(verb.es[0])} ${esDef(object)}`;
    case 'pt-BR':
      return `${capitalize(verb.pt[0])} ${ptDef(object)}`;
    case 'ja':
      return `${object.ja}を${verb.ja}する`;
    case 'ko':
      return `${koObject(object.ko)} ${verb.ko}하기`;
    case 'zh-Hans':
      return `${verb.zhHans}${object.zhHans}`;
    case 'zh-Hant':
      return `${verb.zhHant}${object.zhHant}`;
  }
}

/** A short noun phrase for list items and image alt text. */
export function nounPhrase(random: Random, locale: Locale): string {
  const adjective = random.pick(adjectives);
  const object = random.pick(nouns);
  switch (locale) {
    case 'en':
      return `${capitalize(adjective.en)} ${object.en}`;
    case 'es':
      return `${capitalize(object.es.word)} ${esAdj(adjective, object)}`;
    case 'pt-BR':
      return `${capitalize(object.pt.word)} ${ptAdj(adjective, object)}`;
    case 'ja':
      return `${adjective.ja}${object.ja}`;
    case 'ko':
      return `${adjective.ko} ${object.ko}`;
    case 'zh-Hans':
      return `${adjective.zhHans}${object.zhHans}`;
    case 'zh-Hant':
      return `${adjective.zhHant}${object.zhHant}`;
  }
}
