// Parallel vocabulary for the corpus: entry i means the same thing in every locale, so a page
// and its translations share their title's concepts. Spanish and Portuguese nouns carry their
// gender (article and adjective agreement); Japanese and Korean verbs are suru/hada stems.

type Gender = 'm' | 'f';
export interface Noun {
  en: string;
  es: { word: string; gender: Gender };
  pt: { word: string; gender: Gender };
  ja: string;
  ko: string;
  zhHans: string;
  zhHant: string;
}
export interface Verb {
  en: string;
  /** Spanish infinitive and third person singular. */
  es: [string, string];
  pt: [string, string];
  ja: string;
  ko: string;
  zhHans: string;
  zhHant: string;
}
export interface Adjective {
  en: string;
  /** Masculine and feminine forms. */
  es: [string, string];
  pt: [string, string];
  ja: string;
  ko: string;
  zhHans: string;
  zhHant: string;
}

const gendered = (spec: string) => {
  const [word, gender] = spec.split(':') as [string, Gender];
  return { word, gender };
};
const noun = (en: string, es: string, pt: string, ja: string, ko: string, zhHans: string, zhHant: string): Noun => ({
  en,
  es: gendered(es),
  pt: gendered(pt),
  ja,
  ko,
  zhHans,
  zhHant,
});

export const nouns: readonly Noun[] = [
  noun('token', 'token:m', 'token:m', 'トークン', '토큰', '代币', '代幣'),
  noun('balance', 'saldo:m', 'saldo:m', '残高', '잔액', '余额', '餘額'),
  noun('transaction', 'transacción:f', 'transação:f', 'トランザクション', '트랜잭션', '交易', '交易'),
  noun('wallet', 'billetera:f', 'carteira:f', 'ウォレット', '지갑', '钱包', '錢包'),
  noun('contract', 'contrato:m', 'contrato:m', 'コントラクト', '컨트랙트', '合约', '合約'),
  noun('block', 'bloque:m', 'bloco:m', 'ブロック', '블록', '区块', '區塊'),
  noun('network', 'red:f', 'rede:f', 'ネットワーク', '네트워크', '网络', '網路'),
  noun('node', 'nodo:m', 'nó:m', 'ノード', '노드', '节点', '節點'),
  noun('address', 'dirección:f', 'endereço:m', 'アドレス', '주소', '地址', '地址'),
  noun('fee', 'comisión:f', 'taxa:f', '手数料', '수수료', '手续费', '手續費'),
  noun('signature', 'firma:f', 'assinatura:f', '署名', '서명', '签名', '簽名'),
  noun('key', 'clave:f', 'chave:f', '鍵', '키', '密钥', '金鑰'),
  noun('event', 'evento:m', 'evento:m', 'イベント', '이벤트', '事件', '事件'),
  noun('log', 'registro:m', 'registro:m', 'ログ', '로그', '日志', '日誌'),
  noun('request', 'solicitud:f', 'requisição:f', 'リクエスト', '요청', '请求', '請求'),
  noun('response', 'respuesta:f', 'resposta:f', 'レスポンス', '응답', '响应', '回應'),
  noun('limit', 'límite:m', 'limite:m', '上限', '한도', '限额', '限額'),
  noun('error', 'error:m', 'erro:m', 'エラー', '오류', '错误', '錯誤'),
  noun('chain', 'cadena:f', 'cadeia:f', 'チェーン', '체인', '链', '鏈'),
  noun('bridge', 'puente:m', 'ponte:f', 'ブリッジ', '브리지', '跨链桥', '跨鏈橋'),
  noun('validator', 'validador:m', 'validador:m', 'バリデーター', '검증자', '验证者', '驗證者'),
  noun('gas price', 'precio del gas:m', 'preço do gás:m', 'ガス価格', '가스 가격', '燃料价格', '燃料價格'),
  noun('price', 'precio:m', 'preço:m', '価格', '가격', '价格', '價格'),
  noun('index', 'índice:m', 'índice:m', 'インデックス', '인덱스', '索引', '索引'),
  noun('query', 'consulta:f', 'consulta:f', 'クエリ', '쿼리', '查询', '查詢'),
  noun('cache', 'caché:f', 'cache:m', 'キャッシュ', '캐시', '缓存', '快取'),
  noun('API key', 'clave de API:f', 'chave de API:f', 'APIキー', 'API 키', 'API 密钥', 'API 金鑰'),
  noun('dashboard', 'panel:m', 'painel:m', 'ダッシュボード', '대시보드', '仪表板', '儀表板'),
  noun('account', 'cuenta:f', 'conta:f', 'アカウント', '계정', '账户', '帳戶'),
  noun('faucet', 'grifo:m', 'torneira:f', 'フォーセット', '포셋', '水龙头', '水龍頭'),
  noun('testnet', 'red de pruebas:f', 'rede de testes:f', 'テストネット', '테스트넷', '测试网', '測試網'),
  noun('webhook', 'webhook:m', 'webhook:m', 'Webhook', '웹훅', '网络钩子', '網路鉤子'),
  noun('storage', 'almacenamiento:m', 'armazenamento:m', 'ストレージ', '스토리지', '存储', '儲存空間'),
  noun('deployment', 'despliegue:m', 'implantação:f', 'デプロイ', '배포', '部署', '部署'),
  noun('migration', 'migración:f', 'migração:f', '移行', '마이그레이션', '迁移', '遷移'),
  noun('performance', 'rendimiento:m', 'desempenho:m', 'パフォーマンス', '성능', '性能', '效能'),
  noun('security', 'seguridad:f', 'segurança:f', 'セキュリティ', '보안', '安全', '安全性'),
  noun('permission', 'permiso:m', 'permissão:f', '権限', '권한', '权限', '權限'),
  noun('team', 'equipo:m', 'equipe:f', 'チーム', '팀', '团队', '團隊'),
  noun('user', 'usuario:m', 'usuário:m', 'ユーザー', '사용자', '用户', '使用者'),
  noun('application', 'aplicación:f', 'aplicação:f', 'アプリケーション', '애플리케이션', '应用', '應用程式'),
  noun('invoice', 'factura:f', 'fatura:f', '請求書', '청구서', '发票', '發票'),
  noun('payment', 'pago:m', 'pagamento:m', '支払い', '결제', '支付', '支付'),
  noun('receipt', 'recibo:m', 'recibo:m', 'レシート', '영수증', '收据', '收據'),
  noun('simulation', 'simulación:f', 'simulação:f', 'シミュレーション', '시뮬레이션', '模拟', '模擬'),
  noun('trace', 'traza:f', 'rastreamento:m', 'トレース', '트레이스', '跟踪记录', '追蹤記錄'),
  noun('upgrade', 'actualización:f', 'atualização:f', 'アップグレード', '업그레이드', '升级', '升級'),
  noun('collection', 'colección:f', 'coleção:f', 'コレクション', '컬렉션', '合集', '收藏集'),
  noun('metadata', 'metadatos:m', 'metadados:m', 'メタデータ', '메타데이터', '元数据', '中繼資料'),
  noun('rollup', 'rollup:m', 'rollup:m', 'ロールアップ', '롤업', '汇总链', '彙總鏈'),
  noun('sequencer', 'secuenciador:m', 'sequenciador:m', 'シーケンサー', '시퀀서', '排序器', '排序器'),
  noun('mempool', 'mempool:f', 'mempool:f', 'メモリプール', '멤풀', '内存池', '記憶體池'),
  noun('snapshot', 'instantánea:f', 'instantâneo:m', 'スナップショット', '스냅샷', '快照', '快照'),
  noun('schema', 'esquema:m', 'esquema:m', 'スキーマ', '스키마', '模式', '結構描述'),
  noun('client', 'cliente:m', 'cliente:m', 'クライアント', '클라이언트', '客户端', '用戶端'),
  noun('server', 'servidor:m', 'servidor:m', 'サーバー', '서버', '服务器', '伺服器'),
  noun('retry', 'reintento:m', 'nova tentativa:f', 'リトライ', '재시도', '重试', '重試'),
  noun('timeout', 'tiempo de espera:m', 'tempo limite:m', 'タイムアウト', '타임아웃', '超时', '逾時'),
  noun('quota', 'cuota:f', 'cota:f', 'クォータ', '할당량', '配额', '配額'),
  noun('region', 'región:f', 'região:f', 'リージョン', '리전', '区域', '區域'),
  noun('latency', 'latencia:f', 'latência:f', 'レイテンシ', '지연 시간', '延迟', '延遲'),
  noun('throughput', 'caudal:m', 'vazão:f', 'スループット', '처리량', '吞吐量', '吞吐量'),
  noun('nonce', 'nonce:m', 'nonce:m', 'ノンス', '논스', '随机数', '隨機數'),
  noun('receipt root', 'raíz de recibos:f', 'raiz de recibos:f', 'レシートルート', '영수증 루트', '收据根', '收據根'),
  noun('token transfer', 'transferencia de tokens:f', 'transferência de tokens:f', 'トークン送金', '토큰 전송', '代币转账', '代幣轉帳'),
  noun('smart wallet', 'billetera inteligente:f', 'carteira inteligente:f', 'スマートウォレット', '스마트 지갑', '智能钱包', '智慧錢包'),
];

const verb = (en: string, es: [string, string], pt: [string, string], ja: string, ko: string, zhHans: string, zhHant: string): Verb => ({
  en,
  es,
  pt,
  ja,
  ko,
  zhHans,
  zhHant,
});

export const verbs: readonly Verb[] = [
  verb('fetch', ['obtener', 'obtiene'], ['obter', 'obtém'], '取得', '조회', '获取', '獲取'),
  verb('send', ['enviar', 'envía'], ['enviar', 'envia'], '送信', '전송', '发送', '發送'),
  verb('verify', ['verificar', 'verifica'], ['verificar', 'verifica'], '検証', '검증', '验证', '驗證'),
  verb('monitor', ['supervisar', 'supervisa'], ['monitorar', 'monitora'], '監視', '모니터링', '监控', '監控'),
  verb('configure', ['configurar', 'configura'], ['configurar', 'configura'], '設定', '설정', '配置', '設定'),
  verb('create', ['crear', 'crea'], ['criar', 'cria'], '作成', '생성', '创建', '建立'),
  verb('delete', ['eliminar', 'elimina'], ['excluir', 'exclui'], '削除', '삭제', '删除', '刪除'),
  verb('update', ['actualizar', 'actualiza'], ['atualizar', 'atualiza'], '更新', '업데이트', '更新', '更新'),
  verb('sign', ['firmar', 'firma'], ['assinar', 'assina'], '署名', '서명', '签署', '簽署'),
  verb('confirm', ['confirmar', 'confirma'], ['confirmar', 'confirma'], '確認', '확인', '确认', '確認'),
  verb('track', ['rastrear', 'rastrea'], ['rastrear', 'rastreia'], '追跡', '추적', '跟踪', '追蹤'),
  verb('estimate', ['calcular', 'calcula'], ['calcular', 'calcula'], '見積もり', '추정', '估算', '估算'),
  verb('store', ['guardar', 'guarda'], ['salvar', 'salva'], '保存', '저장', '保存', '儲存'),
  verb('migrate', ['migrar', 'migra'], ['migrar', 'migra'], '移行', '마이그레이션', '迁移', '遷移'),
  verb('optimize', ['optimizar', 'optimiza'], ['otimizar', 'otimiza'], '最適化', '최적화', '优化', '最佳化'),
  verb('deploy', ['desplegar', 'despliega'], ['implantar', 'implanta'], 'デプロイ', '배포', '部署', '部署'),
  verb('index', ['indexar', 'indexa'], ['indexar', 'indexa'], 'インデックス化', '색인', '索引', '索引'),
  verb('limit', ['limitar', 'limita'], ['limitar', 'limita'], '制限', '제한', '限制', '限制'),
  verb('aggregate', ['agregar', 'agrega'], ['agregar', 'agrega'], '集計', '집계', '汇总', '彙總'),
  verb('sync', ['sincronizar', 'sincroniza'], ['sincronizar', 'sincroniza'], '同期', '동기화', '同步', '同步'),
  verb('encrypt', ['cifrar', 'cifra'], ['criptografar', 'criptografa'], '暗号化', '암호화', '加密', '加密'),
  verb('simulate', ['simular', 'simula'], ['simular', 'simula'], 'シミュレート', '시뮬레이션', '模拟', '模擬'),
  verb('batch', ['agrupar', 'agrupa'], ['agrupar', 'agrupa'], '一括処理', '일괄 처리', '批量处理', '批次處理'),
  verb('debug', ['depurar', 'depura'], ['depurar', 'depura'], 'デバッグ', '디버깅', '调试', '偵錯'),
];

const adjective = (en: string, es: [string, string], pt: [string, string], ja: string, ko: string, zhHans: string, zhHant: string): Adjective => ({
  en,
  es,
  pt,
  ja,
  ko,
  zhHans,
  zhHant,
});

export const adjectives: readonly Adjective[] = [
  adjective('fast', ['rápido', 'rápida'], ['rápido', 'rápida'], '高速な', '빠른', '快速的', '快速的'),
  adjective('secure', ['seguro', 'segura'], ['seguro', 'segura'], '安全な', '안전한', '安全的', '安全的'),
  adjective('reliable', ['confiable', 'confiable'], ['confiável', 'confiável'], '信頼性の高い', '신뢰할 수 있는', '可靠的', '可靠的'),
  adjective('new', ['nuevo', 'nueva'], ['novo', 'nova'], '新しい', '새로운', '新的', '新的'),
  adjective('public', ['público', 'pública'], ['público', 'pública'], '公開の', '공개', '公开的', '公開的'),
  adjective('private', ['privado', 'privada'], ['privado', 'privada'], '非公開の', '비공개', '私有的', '私有的'),
  adjective('pending', ['pendiente', 'pendiente'], ['pendente', 'pendente'], '保留中の', '대기 중인', '待处理的', '待處理的'),
  adjective('confirmed', ['confirmado', 'confirmada'], ['confirmado', 'confirmada'], '確認済みの', '확인된', '已确认的', '已確認的'),
  adjective('large', ['grande', 'grande'], ['grande', 'grande'], '大規模な', '대규모', '大型', '大型'),
  adjective('small', ['pequeño', 'pequeña'], ['pequeno', 'pequena'], '小さな', '작은', '小型', '小型'),
  adjective('native', ['nativo', 'nativa'], ['nativo', 'nativa'], 'ネイティブの', '네이티브', '原生', '原生'),
  adjective('custom', ['personalizado', 'personalizada'], ['personalizado', 'personalizada'], 'カスタムの', '사용자 지정', '自定义', '自訂'),
  adjective('historical', ['histórico', 'histórica'], ['histórico', 'histórica'], '過去の', '과거', '历史', '歷史'),
  adjective('real-time', ['en tiempo real', 'en tiempo real'], ['em tempo real', 'em tempo real'], 'リアルタイムの', '실시간', '实时', '即時'),
  adjective('failed', ['fallido', 'fallida'], ['com falha', 'com falha'], '失敗した', '실패한', '失败的', '失敗的'),
  adjective('expired', ['caducado', 'caducada'], ['expirado', 'expirada'], '期限切れの', '만료된', '已过期的', '已過期的'),
  adjective('signed', ['firmado', 'firmada'], ['assinado', 'assinada'], '署名済みの', '서명된', '已签名的', '已簽名的'),
  adjective('cross-chain', ['entre cadenas', 'entre cadenas'], ['entre cadeias', 'entre cadeias'], 'クロスチェーンの', '크로스체인', '跨链', '跨鏈'),
];

export const companyParts = {
  first: [
    'Nova',
    'Lumen',
    'Harbor',
    'Atlas',
    'Quartz',
    'Ember',
    'Kite',
    'Orbit',
    'Cinder',
    'Vale',
    'Pioneer',
    'Tidal',
    'Summit',
    'Beacon',
    'Cobalt',
    'Meridian',
  ],
  second: ['Pay', 'Labs', 'Markets', 'Games', 'Finance', 'Studio', 'Protocol', 'Exchange', 'Wallet', 'Systems'],
};

export const authors = [
  'Ana Souza',
  'Kenji Watanabe',
  'Min-jun Park',
  'Lucía Fernández',
  'Wei Chen',
  'Ava Thompson',
  'João Martins',
  'Yuki Tanaka',
  'Ji-woo Kim',
  'Mei Lin',
];

/** RPC method names used in tables, inline code and snippets. */
export const rpcMethods = [
  'eth_blockNumber',
  'eth_getBalance',
  'eth_call',
  'eth_estimateGas',
  'eth_getLogs',
  'eth_sendRawTransaction',
  'eth_getTransactionReceipt',
  'eth_feeHistory',
  'eth_chainId',
  'debug_traceTransaction',
  'crucible_getTokenBalances',
  'crucible_getAssetTransfers',
  'crucible_getNftsForOwner',
];
