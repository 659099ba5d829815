// A web Response whose body and headers are already plain data. Undici builds a ReadableStream
// for every Response body and a validated, sorted header list for every Headers, and the Node
// adapter would read both back; measured in the server that cost more than everything else an
// /api/ip request does (BENCHMARKS.md, Server). This subclass keeps the body (a string or bytes)
// and the header record, hands them to the adapter as they are, and builds the stream or the
// Headers only if someone asks for them.

export class BufferedResponse extends Response {
  /** The body as given: a string is written by node:http together with the head, without a Buffer of its own. */
  readonly #given: string | Uint8Array | null;
  #bytes?: Uint8Array | null;
  readonly #headerRecord: Record<string, string>;
  #headers?: Headers;
  #full?: Response;

  constructor(body: string | Uint8Array | null, init: { status?: number; statusText?: string; headers?: Record<string, string> } = {}) {
    super(null, { status: init.status ?? 200, ...(init.statusText ? { statusText: init.statusText } : {}) });
    this.#given = body;
    this.#headerRecord = init.headers ?? {};
  }

  /** The body's bytes. */
  get buffered(): Uint8Array | null {
    if (this.#bytes === undefined) this.#bytes = typeof this.#given === 'string' ? Buffer.from(this.#given) : this.#given;
    return this.#bytes;
  }

  /** The body for the Node adapter to write as is: a string (UTF-8) or bytes. */
  get writableBody(): string | Uint8Array | null {
    return this.#given;
  }

  override get headers(): Headers {
    return (this.#headers ??= new Headers(this.#headerRecord));
  }

  /** Lower-case header names and values to write, unless someone reached for `headers` (and could have changed them). */
  get plainHeaders(): Record<string, string> | undefined {
    if (this.#headers) return undefined;
    const plain: Record<string, string> = {};
    for (const name in this.#headerRecord) plain[name.toLowerCase()] = this.#headerRecord[name]!;
    return plain;
  }

  /** The same response as an ordinary Response, for every body accessor. */
  #materialized(): Response {
    return (this.#full ??= new Response(this.buffered as BodyInit | null, { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  override get body() {
    return this.#materialized().body;
  }
  override get bodyUsed() {
    return this.#full?.bodyUsed ?? false;
  }
  override arrayBuffer() {
    return this.#materialized().arrayBuffer();
  }
  override bytes() {
    return this.#materialized().bytes();
  }
  override blob() {
    return this.#materialized().blob();
  }
  override formData() {
    return this.#materialized().formData();
  }
  override json() {
    return this.#materialized().json();
  }
  override text() {
    return this.#materialized().text();
  }
  override clone(): Response {
    const headers: Record<string, string> = {};
    this.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return new BufferedResponse(this.#given, { status: this.status, statusText: this.statusText, headers });
  }
}
