// The shape of a domain: everything the router, the documents, the ingest CLI and the first-start
// bootstrap need to know about it (the benchmark sizes the samples in its own table, bench/scales.ts).
// A domain is one folder under domains/ that exports one `Domain`; domains/index.ts lists them, one
// line each.
import type { Database } from '../engine/database.ts';
import type { IngestCommand } from '../ingest/command.ts';
import type { SampleSource } from '../ingest/sampleSource.ts';
import type { Route } from '../queries/catalog.ts';
import type { CountryCoverage } from '../queries/shared/coverage.ts';

/** A docs group: the catalog tag of some routes, with its title and one-paragraph description. */
export interface DomainTag {
  tag: string;
  title: string;
  description: string;
}

/**
 * Tables several domains read, with the generic reader that loads them and its ingest command (the
 * Eurostat and World Bank readers under ingest/). No domain owns them: each domain that reads them
 * says so in `uses`, and the registry loads them once, before the first such domain, and registers
 * their command once.
 */
export interface SharedTables {
  /** The reader's name, also its command's source name (`eurostat`, `worldbank`). */
  name: string;
  command: IngestCommand;
  /** Creates the tables from the snapshot in dataDir (empty when it has no files); SQL only, as Domain.load. */
  load(db: Database, dataDir: string): Promise<void>;
}

/** One ingestable source of a domain: `npm run ingest -- <command.source> ...` and its sample. */
export interface DomainSource {
  /** Absent when the files are ingested by a shared reader's command (HICP and the energy samples through `eurostat`). */
  command?: IngestCommand;
  /** The generator and sample ingest used on first start (data/sample/<sample.name>) and by the bench. */
  sample: SampleSource;
}

export interface Domain {
  /** Folder name under domains/ (sebra, ptp, ...). */
  name: string;
  /** Docs groups, in the order the documents show them; every route's tag must be one of them. */
  tags: readonly DomainTag[];
  routes: readonly Route[];
  /** Names of the domains whose tables `load` reads (they are loaded first). */
  dependsOn?: readonly string[];
  /** The shared tables this domain's load or routes read (loaded before it: domains/sharedTables.ts). */
  uses?: readonly SharedTables[];
  /**
   * Creates this domain's tables from the snapshot in dataDir (empty tables when it has no files) and
   * builds its rollups: SQL only, because it runs once when a generation's serving database is built
   * (domains/servingDatabase.ts) and the server then opens that file without running it.
   */
  load(db: Database, dataDir: string): Promise<void>;
  /**
   * Builds the JavaScript-side state this domain keeps per database from its loaded tables: after
   * `load`, and again whenever a prebuilt serving database is opened.
   */
  open?(db: Database): Promise<void>;
  /**
   * The country overview's sources (statsoffice, centralbank, coop, devbank) this domain holds, each with
   * the latest headline for a country; the loader registers them (queries/shared/coverage.ts).
   */
  coverage?: readonly CountryCoverage[];
  sources: readonly DomainSource[];
}

/** Declares a domain (identity: the type is the contract). */
export function defineDomain(domain: Domain): Domain {
  return domain;
}
