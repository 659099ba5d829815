// Cloudflare's documented dummy Turnstile token: the one token local mode's development check
// accepts. Its own module, free of Node imports, so the faucet page's script can share it.

export const DEV_TURNSTILE_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
