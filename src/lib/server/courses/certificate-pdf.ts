/**
 * The « certificat de réalisation » (issue « Formation, part 1 », point 5): the Ministry of Labour's one-page model,
 * which funders (OPCO, FAFCEA, France Travail) ask with the invoice — who provides, who was trained (and for which
 * company), which action and of what nature, between which dates, and for how long: **the duration realised**, the
 * sum of the completed modules' estimated durations, as the model says to count activities at a distance. Drawn in
 * the attestation's faces, tagged and described the same way (attestation-pdf.ts). Made at each download: it states
 * what is done so far.
 */
import { company, companyAddressLine } from '$lib/company';
import {
	A4,
	ACCENT,
	drawSignature,
	durationText,
	longDate,
	MARGIN,
	SOFT,
	trainingDocument,
	Writer
} from './attestation-pdf';

export interface CertificateContent {
	learnerName: string;
	/** The company named in the learner's candidature; null: the line says « — ». */
	employer: string | null;
	programme: string;
	firstAccessAt: Date;
	lastCompletedAt: Date;
	/** The completed modules' durations, summed. */
	minutesRealised: number;
	issuedAt: Date;
	/** The signature and stamp the admin uploaded (PNG); null: room for them. */
	signature: Uint8Array | null;
}

const NATURES = [
	['action de formation', true],
	['bilan de compétences', false],
	['action de VAE', false],
	['action de formation par apprentissage', false]
] as const;

/** Hours as the model writes them: « 1,5 heure », « 3 heures ». */
export function hoursText(minutes: number): string {
	const hours = Math.round((minutes / 60) * 100) / 100;
	return `${hours.toLocaleString('fr-FR')} heure${hours >= 2 ? 's' : ''} (${durationText(minutes)})`;
}

export async function certificatePdf(content: CertificateContent): Promise<Uint8Array> {
	const { doc, fonts, tags, page } = await trainingDocument({
		title: `Certificat de réalisation — ${content.learnerName}`,
		subject: content.programme,
		identifier: `certificat-${content.issuedAt.getTime()}`,
		date: content.issuedAt,
		texts: [content.employer ?? '']
	});
	// One page by construction: no `doc` given, the writer never adds one.
	const w = new Writer(page, fonts, tags);

	w.text('Certificat de réalisation', { bold: true, size: 22, after: 6, tag: 'H1' });
	w.text('Modèle du ministère du Travail, de l’Emploi et de l’Insertion', {
		size: 9,
		color: SOFT,
		after: 18
	});
	tags.artifact(page, () => page.drawRectangle({ x: MARGIN, y: w.y, width: 60, height: 3, color: ACCENT }));
	w.y -= 18;

	const p = (text: string, options: Parameters<Writer['text']>[1] = {}) =>
		w.text(text, { size: 11, after: 8, ...options });
	const statement = tags.element('P');
	p(
		`Je soussigné(e) ${company.publicationDirector}, représentant(e) légal(e) du dispensateur de l’action concourant au développement des compétences ${company.legalName},`,
		{ tag: statement }
	);
	w.text('atteste que :', { size: 11, after: 8, tag: statement });
	w.text(content.learnerName, { bold: true, size: 14, after: 4, tag: statement });
	p(`salarié(e) ou dirigeant(e) de l’entreprise ${content.employer ?? '—'}`, { tag: statement });
	w.text('a suivi l’action', { size: 11, after: 4, tag: statement });
	w.text(`« ${content.programme} »`, { bold: true, size: 13, after: 12, tag: statement });

	w.text('Nature de l’action concourant au développement des compétences :', {
		size: 11,
		after: 4,
		tag: 'H2'
	});
	const list = tags.element('L');
	for (const [label, checked] of NATURES) {
		const item = tags.element('LI', list);
		const y = w.y;
		// The box is drawn (the site's faces have no ballot box); a ticked one holds an X, read as its label.
		tags.artifact(w.page, () =>
			w.page.drawRectangle({ x: MARGIN, y: y - 10, width: 9, height: 9, borderColor: SOFT, borderWidth: 0.7 })
		);
		if (checked) w.text('X', { size: 8, bold: true, x: MARGIN + 1.7, tag: tags.element('Lbl', item) });
		w.y = y;
		w.text(label + (checked ? ' (article L6313-1 du Code du travail)' : ''), {
			size: 11,
			x: MARGIN + 18,
			bold: checked,
			tag: tags.element('LBody', item)
		});
	}
	w.y -= 10;

	p(
		`qui s’est déroulée du ${longDate(content.firstAccessAt)} au ${longDate(content.lastCompletedAt)}, à distance, pour une durée de ${hoursText(content.minutesRealised)}.`
	);
	p(
		'Pour les formations à distance, la durée prend en compte la réalisation des activités pédagogiques et le temps estimé pour les réaliser : celle des modules terminés par le bénéficiaire.',
		{ size: 9, color: SOFT }
	);
	p(
		'Sans préjudice des délais imposés par les règles fiscales, comptables ou commerciales, je m’engage à conserver l’ensemble des pièces justificatives qui ont permis d’établir le présent certificat pendant une durée de 3 ans à compter de la fin de l’année du dernier paiement. En cas de cofinancement des fonds européens, la durée de conservation est étendue conformément aux obligations conventionnelles spécifiques.',
		{ size: 9, color: SOFT, after: 16 }
	);

	w.text(`Fait à ${company.address.city}, le ${longDate(content.issuedAt)}`, { size: 11, after: 10 });

	// The provider's identity and the signature block, side by side at the page's foot.
	const footTop = Math.min(w.y, 230);
	w.y = footTop;
	const provider = tags.element('Sect');
	for (const [text, bold] of [
		[company.legalName, true],
		[companyAddressLine(), false],
		[`SIRET ${company.siret}`, false],
		[`Déclaration d’activité n° ${company.trainingDeclaration}`, false],
		['(cet enregistrement ne vaut pas agrément de l’État)', false]
	] as const) {
		w.text(text, { size: 9, bold, color: bold ? undefined : SOFT, tag: tags.element('P', provider) });
	}
	const blockWidth = 220;
	const blockHeight = 70;
	const blockX = A4[0] - MARGIN - blockWidth;
	const signer = new Writer(page, fonts, tags);
	signer.y = footTop;
	const signature = tags.element('Sect');
	signer.text('Cachet et signature du responsable du dispensateur', {
		size: 9,
		x: blockX,
		color: SOFT,
		tag: tags.element('P', signature)
	});
	signer.text(company.publicationDirector, {
		size: 10,
		bold: true,
		x: blockX,
		after: 4,
		tag: tags.element('P', signature)
	});
	await drawSignature(
		{ doc, page, tags, fonts, parent: signature },
		{
			x: blockX,
			top: signer.y,
			width: blockWidth,
			height: blockHeight,
			png: content.signature
		}
	);
	tags.finish();
	return doc.save();
}
