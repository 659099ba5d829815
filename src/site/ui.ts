import { z } from 'zod';
import { type CachePolicy, rpcCategories, type RpcCategory, type RpcTransport } from '../node/rpc/method.ts';
import type { SourceKind } from '../prices/observation.ts';
import type { WebhookType } from '../webhooks/schemas.ts';
import { locales, type Locale } from './locales.ts';
import { sections, type Section } from './sections.ts';
import { uiMessage, uiText } from './ui-message.ts';
export { formatUi, formatUiAround } from './ui-message.ts';
import en from './ui/en.json' with { type: 'json' };
import es from './ui/es.json' with { type: 'json' };
import ja from './ui/ja.json' with { type: 'json' };
import ko from './ui/ko.json' with { type: 'json' };
import ptBR from './ui/pt-BR.json' with { type: 'json' };
import zhHans from './ui/zh-Hans.json' with { type: 'json' };
import zhHant from './ui/zh-Hant.json' with { type: 'json' };

// Interface strings live in src/site/ui/<locale>.json, one file per locale with the same keys.
// They stay with the code rather than under content/: components name the keys, and a content
// tree (the fixture site, the benchmark corpus) is swapped without them. Every file is checked
// against the schema below when this module loads, so a build stops on a missing or stray key.

const uiFiles: Record<Locale, unknown> = { en, ja, es, ko, 'zh-Hans': zhHans, 'zh-Hant': zhHant, 'pt-BR': ptBR };

/** Where a locale's strings are, as messages name it. */
export function uiFileOf(locale: Locale): string {
  return `src/site/ui/${locale}.json`;
}

// One label per cache policy and transport of the method registry: a kind added there fails to typecheck here.
const cachePolicyLabels: Record<CachePolicy['kind'], typeof uiText> = { none: uiText, forever: uiText, 'when-found': uiText, 'when-final': uiText };
const transportLabels: Record<RpcTransport, typeof uiText> = { any: uiText, websocket: uiText };
// One label and one sentence per kind of price source: a kind added there fails to typecheck here.
const priceSourceKindTexts: Record<SourceKind, typeof uiText> = { 'amm-v2': uiText, 'amm-v3': uiText, oracle: uiText, exchange: uiText };

// One label per webhook type: a type added there fails to typecheck here.
const webhookTypeLabels: Record<WebhookType, typeof uiText> = {
  NFT_ACTIVITY: uiText,
  NFT_METADATA_UPDATE: uiText,
  ADDRESS_ACTIVITY: uiText,
  MINED_TRANSACTION: uiText,
  DROPPED_TRANSACTION: uiText,
};

/** The keys every locale's file has. Section names double as SearchGroup labels (docs/website.md#search-index). */
function uiStringsSchema(locale: Locale) {
  const message = <const Names extends readonly string[]>(...names: Names) => uiMessage(locale, ...names);
  return z.strictObject({
    siteTagline: uiText,
    skipToContent: uiText,
    mainNavigation: uiText,
    language: uiText,
    sections: z.strictObject(Object.fromEntries(sections.map((section) => [section, uiText])) as Record<Section, typeof uiText>),
    faucets: uiText,
    appsGroup: uiText,
    search: z.strictObject({
      button: uiText,
      placeholder: uiText,
      dialogLabel: uiText,
      empty: uiText,
      loading: uiText,
      error: uiText,
      external: uiText,
      hintNavigate: uiText,
      hintOpen: uiText,
      hintClose: uiText,
      close: uiText,
    }),
    readMore: uiText,
    published: uiText,
    updated: uiText,
    onThisPage: uiText,
    viewAsMarkdown: uiText,
    translations: uiText,
    allInSection: uiText,
    footerText: uiText,
    notFoundTitle: uiText,
    notFoundBody: uiText,
    backHome: uiText,
    faucet: z.strictObject({
      indexTitle: uiText,
      indexIntro: uiText,
      pageTitle: message('name'),
      pageIntro: message('name', 'amount', 'symbol', 'hours'),
      perDrip: message('amount', 'symbol'),
      deprecatedBadge: uiText,
      deprecatedNotice: uiText,
      allFaucets: uiText,
      addressLabel: uiText,
      addressHelp: uiText,
      addressInvalid: uiText,
      captchaRequired: uiText,
      devCheckLabel: uiText,
      devCheckNote: uiText,
      submit: message('amount', 'symbol'),
      sending: uiText,
      pending: uiText,
      success: message('amount', 'symbol'),
      failed: uiText,
      transaction: uiText,
      viewOnExplorer: uiText,
      retryIn: message('time'),
      networkError: uiText,
    }),
    networkFacts: z.strictObject({
      heading: uiText,
      chainId: uiText,
      nativeCurrency: uiText,
      explorer: uiText,
      endpoint: uiText,
      webSocket: uiText,
      mainnet: uiText,
      faucet: uiText,
      deprecated: uiText,
      none: uiText,
    }),
    // The JSON-RPC method reference (content/<locale>/rpc/methods.md) and the methods list of RPC pages.
    rpcDocs: z.strictObject({
      title: uiText,
      description: uiText,
      intro: message('endpoint'),
      openRpc: message('url'),
      categories: z.strictObject(Object.fromEntries(rpcCategories.map((category) => [category, uiText])) as Record<RpcCategory, typeof uiText>),
      method: uiText,
      summary: uiText,
      cost: message('cu'),
      notificationCost: message('cu'),
      parameter: uiText,
      type: uiText,
      optional: uiText,
      optionalDefault: message('value'),
      noParams: uiText,
      result: uiText,
      computeUnits: uiText,
      cache: uiText,
      cachePolicies: z.strictObject(cachePolicyLabels),
      transport: uiText,
      transports: z.strictObject(transportLabels),
      answeredLocally: uiText,
      aliases: uiText,
      blockedHeading: uiText,
      blockedIntro: uiText,
      blockedMethods: uiText,
      blockedReason: uiText,
      limitsHeading: uiText,
      limitBody: message('size'),
      limitBatch: message('count'),
      limitLogsRange: message('count'),
      limitTraceRange: message('count'),
      limitLogsFilter: message('addresses', 'topics'),
      limitSubscriptions: message('count'),
      networkHeading: uiText,
      networkIntro: message('reference'),
      category: uiText,
    }),
    // The local world's page (content/<locale>/overviews/local-world.md): its contracts and the demo wallet.
    worldDocs: z.strictObject({
      title: uiText,
      description: uiText,
      intro: message('start'),
      persistence: message('dataDir', 'multicall'),
      contractsHeading: uiText,
      contract: uiText,
      kind: uiText,
      address: uiText,
      purpose: uiText,
      // One label per kind of the world's manifest (src/chain/world/, which the content model may not import).
      kinds: z.strictObject({ erc20: uiText, erc721: uiText, erc1155: uiText, 'legacy-nft': uiText, multicall: uiText }),
      demoWalletHeading: uiText,
      demoWallet: message('address'),
      examplesHeading: uiText,
      examplesIntro: message('start', 'network', 'key'),
      curlExample: uiText,
      sdkExample: message('sdk', 'setting'),
      examplesReference: message('reference'),
      // The price layer's section: its contracts, pools and feeds, the feeds' heartbeat, and a swap to try.
      prices: z.strictObject({
        heading: uiText,
        intro: message('core', 'interface'),
        contractsIntro: uiText,
        poolsIntro: uiText,
        poolColumn: uiText,
        tokensColumn: uiText,
        feedsIntro: uiText,
        feedColumn: uiText,
        descriptionColumn: uiText,
        decimalsColumn: uiText,
        heartbeat: message('check', 'heartbeat'),
        swap: message('start', 'amount', 'symbol', 'pool', 'network', 'swapFunction'),
      }),
      // The native layer's section: ether sent and forwarded, its contract, and a transfers call to try.
      native: z.strictObject({
        heading: uiText,
        intro: message('method'),
        contractIntro: uiText,
        example: message('start'),
      }),
      // The marketplace's section: the contract, who trades, its listings and sales, the floors, and calls that read them.
      market: z.strictObject({
        heading: uiText,
        intro: message('contract', 'address', 'fee', 'royalty', 'relics', 'materials'),
        who: uiText,
        nameColumn: uiText,
        listingsIntro: uiText,
        listingColumn: uiText,
        sellerColumn: uiText,
        tokenColumn: uiText,
        quantityColumn: uiText,
        unitPriceColumn: uiText,
        stateColumn: uiText,
        states: z.strictObject({ open: uiText, sold: uiText, cancelled: uiText, unfillable: uiText }),
        partlySold: message('sold', 'quantity'),
        salesIntro: uiText,
        buyerColumn: uiText,
        priceColumn: uiText,
        feeColumn: uiText,
        royaltyColumn: uiText,
        floors: message('relics', 'materials'),
        examples: message('start', 'network'),
        reference: message('reference'),
      }),
    }),
    // How prices are computed (content/<locale>/overviews/price-method.md): the method and the sources per token.
    priceMethod: z.strictObject({
      title: uiText,
      description: uiText,
      intro: message('guide'),
      apiGuide: uiText,
      whatHeading: uiText,
      what: message('decimals', 'example', 'lastUpdatedAt'),
      sourcesHeading: uiText,
      sourcesIntro: message('tokenList', 'prices'),
      kindColumn: uiText,
      readsColumn: uiText,
      freshColumn: uiText,
      kinds: z.strictObject(priceSourceKindTexts),
      reads: z.strictObject(priceSourceKindTexts),
      freshSettings: message('settings'),
      outliersHeading: uiText,
      outliers: message('rule', 'k', 'floor'),
      outliersWhy: message('band', 'setting'),
      medianHeading: uiText,
      median: uiText,
      medianWhen: uiText,
      conversionHeading: uiText,
      conversion: uiText,
      conversionExample: message('token', 'quote'),
      samplingHeading: uiText,
      sampling: message('period', 'setting', 'worker'),
      history: message('start', 'end'),
      backfill: message('setting'),
      intervalColumn: uiText,
      boundaryColumn: uiText,
      rangeColumn: uiText,
      noFreshHeading: uiText,
      noFresh: message('empty', 'error'),
      tableHeading: uiText,
      tableIntro: message('tokens', 'world', 'network', 'start', 'setting'),
      tableExchanges: message('setting', 'local', 'other'),
      noExchanges: uiText,
      tokenColumn: uiText,
      sourceColumn: uiText,
      addressColumn: uiText,
      seededColumn: uiText,
      worldPool: message('pool', 'token', 'quote'),
      worldFeed: message('feed', 'pair'),
      networkPair: message('network', 'token', 'quote'),
      networkFeed: message('network'),
      exchangeMarket: message('exchange', 'market'),
      poolSeeds: message('amount', 'token', 'quoteAmount', 'quote', 'price'),
      feedSeed: message('answer', 'decimals'),
      tableOutro: message('heartbeat'),
    }),
    // The demo wallet's NFT gallery (`/nfts/gallery`): its texts; the browser fills `shown`, `failed` around their values.
    nftGallery: z.strictObject({
      title: uiText,
      description: uiText,
      intro: message('wallet', 'network'),
      noscript: message('endpoint'),
      loading: uiText,
      shown: message('count'),
      failed: message('reason'),
      empty: uiText,
      collection: uiText,
      tokenId: uiText,
      balance: uiText,
      spam: uiText,
      metadataError: uiText,
      noImage: uiText,
      unnamed: uiText,
      guide: uiText,
    }),
    // The developer dashboard (docs/dashboard.md#pages): prerendered shells whose scripts fill in the account's data.
    // Messages the browser fills in (an email, a time) take plain placeholders, without ICU formats.
    dashboard: z.strictObject({
      nav: uiText,
      common: z.strictObject({
        navLabel: uiText,
        apps: uiText,
        webhooks: uiText,
        account: uiText,
        signedInAs: message('email'),
        signOut: uiText,
        loading: uiText,
        noscript: uiText,
        networkError: uiText,
        failed: message('reason'),
        tooManyAttempts: message('when'),
        busy: uiText,
        cancel: uiText,
        copy: uiText,
        copied: uiText,
        copyFailed: uiText,
        created: uiText,
        never: uiText,
      }),
      // What a field must be, shown beside it when the client's check refuses it.
      errors: z.strictObject({
        email: uiText,
        password: uiText,
        currentPassword: uiText,
        name: uiText,
        allowedNetworks: uiText,
        allowedDomains: uiText,
        url: uiText,
        network: uiText,
        contractAddresses: uiText,
        tokenIds: uiText,
        addresses: uiText,
        appId: uiText,
        tokenName: uiText,
      }),
      start: z.strictObject({
        title: uiText,
        description: uiText,
        intro: uiText,
        demoHeading: uiText,
        demoBody: message('key', 'rate', 'burst'),
        demoTry: message('start', 'network'),
        accountHeading: uiText,
        signedOut: uiText,
        signedIn: message('email'),
        openApps: uiText,
      }),
      auth: z.strictObject({
        email: uiText,
        password: uiText,
        passwordHelp: uiText,
        signUpTitle: uiText,
        signUpDescription: uiText,
        signUpIntro: uiText,
        signUp: uiText,
        signingUp: uiText,
        haveAccount: uiText,
        emailTaken: uiText,
        signInTitle: uiText,
        signInDescription: uiText,
        signInIntro: uiText,
        signIn: uiText,
        signingIn: uiText,
        noAccount: uiText,
        wrongCredentials: uiText,
        signInFirst: uiText,
      }),
      apps: z.strictObject({
        title: uiText,
        description: uiText,
        intro: uiText,
        listHeading: uiText,
        empty: uiText,
        name: uiText,
        state: uiText,
        networks: uiText,
        domains: uiText,
        active: uiText,
        disabled: uiText,
        allNetworks: uiText,
        anyDomain: uiText,
        createHeading: uiText,
        nameHelp: uiText,
        networksHelp: uiText,
        domainsHelp: uiText,
        create: uiText,
        creating: uiText,
        count: message('count', 'max'),
        atLimit: uiText,
      }),
      app: z.strictObject({
        title: uiText,
        description: uiText,
        back: uiText,
        missingId: uiText,
        notFound: uiText,
        created: uiText,
        id: uiText,
        rate: uiText,
        rateValue: message('cu'),
        quota: uiText,
        quotaValue: message('cu'),
        unlimited: uiText,
        updated: uiText,
        keyHeading: uiText,
        keyIntro: uiText,
        keyHidden: uiText,
        showKey: uiText,
        hideKey: uiText,
        copyKey: uiText,
        previousKey: message('time'),
        endpointsHeading: uiText,
        endpointsIntro: uiText,
        network: uiText,
        withTool: message('tool'),
        webSocket: uiText,
        stateHeading: uiText,
        activeNote: uiText,
        disabledNote: uiText,
        disable: uiText,
        enable: uiText,
        settingsHeading: uiText,
        save: uiText,
        saving: uiText,
        saved: uiText,
        staleVersion: uiText,
        rotateHeading: uiText,
        rotateIntro: uiText,
        graceLabel: uiText,
        graceNow: uiText,
        graceHour: uiText,
        graceDay: uiText,
        rotate: uiText,
        rotateConfirm: uiText,
        rotateConfirmBody: uiText,
        rotated: uiText,
        deleteHeading: uiText,
        deleteIntro: uiText,
        delete: uiText,
        deleteConfirm: message('name'),
        deleteConfirmBody: uiText,
      }),
      usage: z.strictObject({
        heading: uiText,
        range: uiText,
        refresh: uiText,
        hour: uiText,
        day: uiText,
        month: uiText,
        requests: uiText,
        computeUnits: uiText,
        errors: uiText,
        time: uiText,
        total: uiText,
        other: uiText,
        code: uiText,
        count: uiText,
        empty: uiText,
        noErrors: uiText,
        summary: message('what', 'total'),
        tableCaption: message('what'),
      }),
      webhooks: z.strictObject({
        title: uiText,
        description: uiText,
        intro: uiText,
        createHeading: uiText,
        type: uiText,
        types: z.strictObject(webhookTypeLabels),
        network: uiText,
        url: uiText,
        urlHelp: uiText,
        contracts: uiText,
        contractsHelp: uiText,
        tokenIds: uiText,
        tokenIdsHelp: uiText,
        addresses: uiText,
        addressesHelp: uiText,
        app: uiText,
        appHelp: uiText,
        noApps: uiText,
        create: uiText,
        creating: uiText,
        count: message('count', 'max'),
        atLimit: uiText,
        listHeading: uiText,
        empty: uiText,
        active: uiText,
        paused: uiText,
        pause: uiText,
        resume: uiText,
        delete: uiText,
        deleteConfirm: uiText,
        deleteConfirmBody: uiText,
        signingKey: uiText,
        signingKeyHelp: uiText,
        everyContract: uiText,
        everyToken: uiText,
        tokens: uiText,
        addressCount: message('count'),
        deliveries: uiText,
        showDeliveries: uiText,
        refresh: uiText,
        noDeliveries: uiText,
        more: uiText,
        status: uiText,
        statuses: z.strictObject({ pending: uiText, delivered: uiText, failed: uiText }),
        block: uiText,
        attempts: uiText,
        httpStatus: uiText,
        lastError: uiText,
        details: uiText,
        payload: uiText,
        attempt: uiText,
        outcome: uiText,
        outcomes: z.strictObject({ sending: uiText, delivered: uiText, failed: uiText, abandoned: uiText }),
        error: uiText,
        duration: uiText,
        started: uiText,
      }),
      account: z.strictObject({
        title: uiText,
        description: uiText,
        intro: uiText,
        passwordHeading: uiText,
        currentPassword: uiText,
        newPassword: uiText,
        change: uiText,
        changing: uiText,
        changed: uiText,
        sessionsHeading: uiText,
        sessionsIntro: uiText,
        signOutEverywhere: uiText,
        signOutEverywhereConfirm: uiText,
        tokensHeading: uiText,
        tokensIntro: uiText,
        tokenName: uiText,
        tokenNameHelp: uiText,
        createToken: uiText,
        tokenSecret: uiText,
        noTokens: uiText,
        lastUsed: uiText,
        active: uiText,
        revoked: uiText,
        revoke: uiText,
        revokeConfirm: uiText,
        revokeConfirmBody: uiText,
        unnamed: uiText,
      }),
    }),
  });
}

/** Interface strings for one locale: text, and messages to format with formatUi. */
export type UiStrings = z.output<ReturnType<typeof uiStringsSchema>>;

/** Every UI file checked at once, so one build lists every problem. */
function loadUiStrings(files: Record<Locale, unknown>): Record<Locale, UiStrings> {
  const problems: string[] = [];
  const loaded = Object.fromEntries(
    locales.map((locale) => {
      const parsed = uiStringsSchema(locale).safeParse(files[locale]);
      if (!parsed.success)
        problems.push(
          ...parsed.error.issues.flatMap((issue) =>
            describeIssue(issue, files[locale]).map((problem) => `  ${uiFileOf(locale)} (locale ${locale}): ${problem}`),
          ),
        );
      return [locale, parsed.data];
    }),
  ) as Record<Locale, UiStrings>;
  if (problems.length) throw new Error(`Invalid UI strings (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.join('\n')}`);
  return loaded;
}

function describeIssue(issue: z.core.$ZodIssue, file: unknown): string[] {
  const key = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') return issue.keys.map((extra) => `unknown key "${key ? `${key}.` : ''}${extra}"`);
  if (issue.code === 'invalid_type' && valueAt(file, issue.path) === undefined) return [`missing key "${key}"`];
  return [`key "${key}" ${issue.message}`];
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), data);
}

export const ui: Record<Locale, UiStrings> = loadUiStrings(uiFiles);

/** A locale's strings as written, by dotted key (`faucet.submit`), in file order. */
export function uiStringsByKey(locale: Locale): Map<string, string> {
  const strings = new Map<string, string>();
  const walk = (value: unknown, key: string) => {
    if (typeof value === 'string') strings.set(key, value);
    else for (const [name, child] of Object.entries(value as object)) walk(child, key ? `${key}.${name}` : name);
  };
  walk(uiFiles[locale], '');
  return strings;
}
