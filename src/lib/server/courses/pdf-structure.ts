/**
 * A tagged PDF's logical structure (ISO 32000-1 §14.7–14.8, what PDF/UA asks): a tree of structure elements
 * (Document → H1, P, L/LI, Table…) whose leaves are the page's marked content, each run of drawing operators
 * wrapped in `BDC … EMC` with a marked-content id; whatever is only decoration is an `Artifact`. pdf-lib draws but
 * does not tag: this writes the operators around its drawing, the elements, the parent tree that maps each page's
 * ids back to their element, and the catalog's `MarkInfo`. A screen reader reads the elements in this order, a
 * checker finds no content outside them.
 */
import {
	PDFArray,
	PDFDict,
	PDFName,
	PDFNumber,
	PDFOperator,
	PDFOperatorNames,
	PDFHexString,
	type PDFDocument,
	type PDFPage,
	type PDFRef
} from 'pdf-lib';

/** What pdf-lib's types allow as operands (a dictionary is written all the same: see `content`). */
type OperatorArguments = NonNullable<Parameters<typeof PDFOperator.of>[1]>;

/** The standard structure types the attestation uses (§14.8.4). */
export type StructureRole =
	| 'Document'
	| 'Sect'
	| 'H1'
	| 'H2'
	| 'P'
	| 'L'
	| 'LI'
	| 'Lbl'
	| 'LBody'
	| 'Table'
	| 'TR'
	| 'TH'
	| 'TD'
	| 'Figure';

export interface StructureElement {
	readonly role: StructureRole;
	readonly ref: PDFRef;
	readonly dict: PDFDict;
	readonly kids: PDFArray;
}

interface PageMarks {
	/** The page's key in the parent tree (its /StructParents). */
	key: number;
	/** Each marked-content id's element, in id order. */
	owners: PDFRef[];
}

export class TaggedPdf {
	readonly root: StructureElement;
	private readonly pages = new Map<PDFPage, PageMarks>();

	constructor(private readonly doc: PDFDocument) {
		this.root = this.element('Document', null);
	}

	/** A new element, last child of `parent` (the Document when left out). */
	element(
		role: StructureRole,
		parent: StructureElement | null = this.root,
		options: { alt?: string; scope?: 'Row' | 'Column' } = {}
	): StructureElement {
		const { context } = this.doc;
		const kids = context.obj([]);
		const dict = context.obj({ Type: 'StructElem', S: role, K: kids });
		if (options.alt !== undefined) dict.set(PDFName.of('Alt'), PDFHexString.fromText(options.alt));
		if (options.scope) dict.set(PDFName.of('A'), context.obj({ O: 'Table', Scope: options.scope }));
		const ref = context.register(dict);
		if (parent) {
			dict.set(PDFName.of('P'), parent.ref);
			parent.kids.push(ref);
		}
		return { role, ref, dict, kids };
	}

	/** Draws on `page` as content of `element`: what `draw` pushes is one marked-content sequence of it. */
	content(page: PDFPage, element: StructureElement, draw: () => void): void {
		const marks = this.marksOf(page);
		const mcid = marks.owners.length;
		marks.owners.push(element.ref);
		element.kids.push(this.doc.context.obj({ Type: 'MCR', Pg: page.ref, MCID: mcid }));
		// `/P <</MCID 3>> BDC`: pdf-lib writes a dictionary operand as it writes any object, though its types
		// list only the operands its own operators use.
		const operands = [PDFName.of(element.role), this.doc.context.obj({ MCID: mcid })];
		page.pushOperators(
			PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, operands as OperatorArguments)
		);
		draw();
		page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
	}

	/** Draws decoration (rules, frames): marked as an artifact, outside the structure, skipped by readers. */
	artifact(page: PDFPage, draw: () => void): void {
		page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [PDFName.of('Artifact')]));
		draw();
		page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
	}

	private marksOf(page: PDFPage): PageMarks {
		let marks = this.pages.get(page);
		if (!marks) {
			marks = { key: this.pages.size, owners: [] };
			this.pages.set(page, marks);
			page.node.set(PDFName.of('StructParents'), PDFNumber.of(marks.key));
			// The reading order of annotations follows the structure (PDF/UA 7.18.3).
			page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
		}
		return marks;
	}

	/** Writes the structure tree's root, its parent tree, and marks the document as tagged. */
	finish(): void {
		const { context, catalog } = this.doc;
		const nums: (number | PDFArray)[] = [];
		for (const marks of this.pages.values()) nums.push(marks.key, context.obj(marks.owners));
		const treeRoot = context.register(
			context.obj({
				Type: 'StructTreeRoot',
				K: this.root.ref,
				ParentTree: context.register(context.obj({ Nums: nums })),
				ParentTreeNextKey: this.pages.size
			})
		);
		this.root.dict.set(PDFName.of('P'), treeRoot);
		catalog.set(PDFName.of('StructTreeRoot'), treeRoot);
		catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
	}
}
