// The operator file of `npm run fetch` and `npm run refresh`: data/config/sources.json (beside the snapshot
// folder: DATA_DIR/../config/sources.json; FETCH_CONFIG names another). Per ingest source: its refresh
// schedule, whether it is fetched at all, and the addresses of files without one stable official address
// (data/config/sources.example.json documents every key). Checked against a JSON schema (ajv).
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { Cron } from 'croner';
import { UsageError } from '../command.ts';
import { UUID_PATTERN } from './egov.ts';
import { SCHEDULE_TIMEZONE } from './sources.ts';

export interface ConfiguredDataset {
  url: string;
  dataset?: string;
  file?: string;
  options?: Record<string, string>;
}

export interface SourceConfig {
  comment?: string;
  /** Croner expression (Europe/Berlin time): when `npm run refresh` fetches the source. */
  schedule?: string;
  /** false: `--all` and the refresh leave the source out (naming it still fetches it). */
  enabled?: boolean;
  /** false: only the datasets below, not the built-in official addresses. */
  builtin?: boolean;
  /** The first year of a history fetched in windows (agrifood, trade). */
  from_year?: number;
  /** A data.egov.bg dataset uri whose resources are listed and fetched (ptp: default the interior ministry's; sebra). */
  egov_dataset?: string;
  datasets?: ConfiguredDataset[];
}

export interface FetchConfig {
  comment?: string;
  sources: Record<string, SourceConfig>;
}

const SAFE_NAME = '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$';

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['sources'],
  properties: {
    comment: { type: 'string' },
    sources: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          comment: { type: 'string' },
          schedule: { type: 'string', minLength: 1, maxLength: 200 },
          enabled: { type: 'boolean' },
          builtin: { type: 'boolean' },
          from_year: { type: 'integer', minimum: 1950, maximum: 2100 },
          egov_dataset: { type: 'string', pattern: UUID_PATTERN },
          datasets: {
            type: 'array',
            maxItems: 10_000,
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['url'],
              properties: {
                url: { type: 'string', pattern: '^https?://', maxLength: 4000 },
                dataset: { type: 'string', pattern: SAFE_NAME },
                file: { type: 'string', pattern: SAFE_NAME },
                options: { type: 'object', additionalProperties: { type: 'string', maxLength: 400 } },
              },
            },
          },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: true }).compile<FetchConfig>(SCHEMA);

/** FETCH_CONFIG when set, else config/sources.json beside the snapshot folder (data/parquet -> data/config/sources.json). */
export function configPathOf(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.FETCH_CONFIG?.trim();
  return configured ? resolve(configured) : join(dirname(resolve(dataDir)), 'config', 'sources.json');
}

/**
 * The operator file; an absent file is an empty one. A file that is no JSON, breaks the schema, names an
 * unknown source or holds a schedule croner cannot read is a usage error naming the file and the problem.
 */
export async function readFetchConfig(file: string, knownSources: readonly string[]): Promise<FetchConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sources: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not JSON: ${(error as Error).message}`);
  }
  if (!validate(parsed)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
    throw new UsageError(`${file}: ${problems.join('; ')}`);
  }
  for (const [name, source] of Object.entries(parsed.sources)) {
    if (!knownSources.includes(name)) throw new UsageError(`${file}: unknown source "${name}" (known: ${knownSources.join(', ')})`);
    if (source.schedule !== undefined) {
      try {
        new Cron(source.schedule, { timezone: SCHEDULE_TIMEZONE, paused: true }).stop();
      } catch (error) {
        throw new UsageError(`${file}: sources.${name}.schedule ${JSON.stringify(source.schedule)}: ${(error as Error).message}`);
      }
    }
  }
  return parsed;
}

/** The operator's entry for a source (client text never indexes the object: Object.hasOwn). */
export function sourceConfigOf(config: FetchConfig, name: string): SourceConfig | undefined {
  return Object.hasOwn(config.sources, name) ? config.sources[name] : undefined;
}
