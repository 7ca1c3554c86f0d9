/** wawoff2 (WOFF2 ⇄ TrueType, compiled to WebAssembly) ships no types: the one function the attestation calls. */
declare module 'wawoff2' {
	export function decompress(woff2: Uint8Array): Promise<Uint8Array>;
}
