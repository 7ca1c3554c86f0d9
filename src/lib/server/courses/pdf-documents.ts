/**
 * The course's PDF documents, rendered by modules loaded on the first document a process makes. What they load —
 * pdf-lib, fontkit and wawoff2 (two WebAssembly modules of 16 MB memory each) — took 46 MB of the server's memory
 * from its start (`node --liftoff-only`, each imported in turn: 46 → 92 MB, 7 December), for documents most servers
 * make a few times a day, or never: the attestation and the certificat de réalisation. Nothing else may import
 * `attestation-pdf.ts` or `certificate-pdf.ts` (tests/static/lazy-modules.test.ts).
 */
import type { AttestationContent } from './attestation-pdf';
import type { CertificateContent } from './certificate-pdf';

export async function attestationPdf(content: AttestationContent): Promise<Uint8Array> {
	return (await import('./attestation-pdf')).attestationPdf(content);
}

export async function certificatePdf(content: CertificateContent): Promise<Uint8Array> {
	return (await import('./certificate-pdf')).certificatePdf(content);
}
