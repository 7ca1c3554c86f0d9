/**
 * PGlite runs each `query()` as six separate exchanges with its engine (Parse, Describe, Bind, Describe,
 * Execute, Sync), each a call into WebAssembly, on an unnamed statement that PostgreSQL parses and plans anew
 * every time. On the session query of every signed-in request that was about 1.1 ms of the server's own thread
 * (the engine runs in it); the same statement kept by name and run as one exchange (Bind, Describe, Execute, Sync)
 * takes about 0.3 ms. This does for the embedded database what prepared.ts does for postgres.js: a statement with
 * parameters is parsed once by its text and kept on the engine's one connection, and each later run is one
 * exchange. The statement is planned as PostgreSQL plans any prepared statement (a generic plan once it costs no
 * more than the custom ones), and it is re-planned by PostgreSQL itself when a migration changes what it reads.
 *
 * The same locks as PGlite's own `query()`: a query outside a transaction waits for the transaction lock (so it
 * never runs between another caller's BEGIN and COMMIT) and then the query lock; a query inside a transaction only
 * takes the query lock, its transaction holding the other. Values are encoded by PGlite's serialisers for the types
 * PostgreSQL inferred, and rows decoded by its parsers, as `query()` does (resultOf). Queries without parameters
 * (migrations, `exec`), and those with a blob (COPY), go to PGlite unchanged.
 *
 * At most STATEMENTS_KEPT statements are kept, the least recently run closed first: a query whose text varies
 * (a list of ids) must not grow the engine's memory without end.
 */
import {
	parse,
	protocol,
	type PGlite,
	type QueryOptions,
	type Results,
	type Transaction
} from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;
type DataRow = InstanceType<typeof protocol.messages.DataRowMessage>;
type CommandComplete = InstanceType<typeof protocol.messages.CommandCompleteMessage>;
type Parsers = PGlite['parsers'];

const STATEMENTS_KEPT = 200;

/** PostgreSQL's answers when a kept statement cannot run as it was kept: it is prepared again, once. */
const STALE_STATEMENT = new Set([
	'26000', // invalid_sql_statement_name: the connection no longer has it
	'0A000' // feature_not_supported: "cached plan must not change result type" after a change of schema
]);

interface Kept {
	name: string;
	parameterTypes: number[];
}

type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;

export function preparingStatementsOnPglite(client: PGlite): PGlite {
	const kept = new Map<string, Kept>();
	let named = 0;
	const { serialize } = protocol;

	const exchange = (messages: Uint8Array[], inTransaction: boolean) =>
		client.execProtocol(concat(messages), { syncToFs: !inTransaction });

	async function prepare(text: string, inTransaction: boolean): Promise<Kept> {
		const messages: Uint8Array[] = [];
		if (kept.size >= STATEMENTS_KEPT) {
			const [oldestText, oldest] = kept.entries().next().value!;
			kept.delete(oldestText);
			messages.push(serialize.close({ type: 'S', name: oldest.name }));
		}
		const statement = { name: `atelier_${++named}`, parameterTypes: [] as number[] };
		messages.push(
			serialize.parse({ name: statement.name, text }),
			serialize.describe({ type: 'S', name: statement.name }),
			serialize.sync()
		);
		const { messages: answer } = await exchange(messages, inTransaction);
		statement.parameterTypes = parse.parseDescribeStatementResults(answer);
		kept.set(text, statement);
		return statement;
	}

	async function run(
		text: string,
		params: unknown[],
		options: QueryOptions | undefined,
		inTransaction: boolean,
		retried = false
	): Promise<Results> {
		let statement = kept.get(text);
		if (statement) {
			// Least recently run first in the map's order: the one closed when the map is full.
			kept.delete(text);
			kept.set(text, statement);
		} else statement = await prepare(text, inTransaction);
		const values = params.map((value, index) => {
			if (value === null || value === undefined) return null;
			const type = statement.parameterTypes[index]!;
			const serializer = options?.serializers?.[type] ?? client.serializers[type];
			return serializer ? serializer(value) : String(value);
		});
		try {
			const { messages } = await exchange(
				[
					serialize.bind({ statement: statement.name, values }),
					serialize.describe({ type: 'P' }),
					serialize.execute({}),
					serialize.sync()
				],
				inTransaction
			);
			return resultOf(messages, client.parsers, options);
		} catch (failure) {
			const code = (failure as { code?: unknown }).code;
			// Outside a transaction only: inside one, the failure has aborted the transaction already.
			if (!retried && !inTransaction && typeof code === 'string' && STALE_STATEMENT.has(code)) {
				kept.delete(text);
				return run(text, params, options, inTransaction, true);
			}
			// As PGlite's query() does, the failing statement goes with the error (its values do not: they can be a
			// password's hash or a token, and errors are logged).
			if (failure && typeof failure === 'object') Object.assign(failure, { query: text });
			throw failure;
		}
	}

	const fast =
		(original: Query, inTransaction: boolean, lock: <T>(task: () => Promise<T>) => Promise<T>): Query =>
		(text, params, options) =>
			!params?.length || options?.blob
				? original(text, params, options)
				: lock(() => run(text, params, options, inTransaction));

	const query = fast(client.query.bind(client), false, async (task) => {
		await client._checkReady();
		return client._runExclusiveTransaction(() => client.runExclusive(task));
	});

	const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
		client.transaction((tx) => {
			const inner = fast(tx.query.bind(tx), true, async (task) => {
				if (tx.closed) throw new Error('Transaction is closed');
				return client.runExclusive(task);
			});
			return callback(
				new Proxy(tx, { get: (target, key) => (key === 'query' ? inner : Reflect.get(target, key)) })
			);
		});

	return new Proxy(client, {
		get(target, key) {
			if (key === 'query') return query;
			if (key === 'transaction') return transaction;
			const value = Reflect.get(target, key, target);
			// PGlite's methods read private fields, which exist on the client, not on this proxy.
			return typeof value === 'function' ? value.bind(target) : value;
		}
	});
}

/**
 * The answer to one statement, decoded as PGlite's `parseResults` does (the same fields, a type's parser taken from
 * the query's own first, then the client's), without its copy of every type's parser into a new object at each
 * query that brings its own (drizzle brings nine): that copy was about 0.25 ms of each query.
 */
function resultOf(messages: BackendMessage[], parsers: Parsers, options?: QueryOptions): Results {
	let fields: { name: string; dataTypeID: number }[] = [];
	const rows: unknown[] = [];
	const decode = (value: string | null, index: number) => {
		if (value === null) return null;
		const type = fields[index]!.dataTypeID;
		const parser = options?.parsers?.[type] ?? parsers[type];
		return parser ? parser(value, type) : value;
	};
	for (const message of messages) {
		if (message.name === 'rowDescription') {
			fields = (message as RowDescription).fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
		} else if (message.name === 'dataRow') {
			const values = (message as DataRow).fields;
			if (options?.rowMode === 'array') rows.push(values.map(decode));
			else {
				const row: Record<string, unknown> = {};
				values.forEach((value, index) => (row[fields[index]!.name] = decode(value, index)));
				rows.push(row);
			}
		} else if (message.name === 'commandComplete') {
			const words = (message as CommandComplete).text.split(' ');
			const command = words[0]!;
			const count = parseInt(words[words.length - 1]!, 10);
			const changes = ['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command);
			return {
				rows: rows as Results['rows'],
				fields,
				command,
				affectedRows: changes ? count : 0,
				...(Number.isNaN(count) ? {} : { rowCount: count })
			};
		}
	}
	return { rows: rows as Results['rows'], fields, affectedRows: 0 };
}

function concat(parts: Uint8Array[]): Uint8Array {
	const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
	let offset = 0;
	for (const part of parts) {
		joined.set(part, offset);
		offset += part.length;
	}
	return joined;
}
