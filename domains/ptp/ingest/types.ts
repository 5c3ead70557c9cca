// The normalised shape every PTP source format (the interior ministry's per-accident open data as
// JSON rows or CSV) is parsed into: one record per road accident.

export type PtpSourceFormat = 'mvr-json' | 'mvr-csv';

/** The file extensions of the two forms (parse.ts). */
export const PTP_FILE_EXTENSIONS = ['.json', '.csv'] as const;

/** What happened to a row's coordinates on the way in. */
export type CoordinateFix = 'as_given' | 'swapped' | 'missing' | 'out_of_area';

export interface PtpRecord {
  /** Local Europe/Sofia time, ISO without zone: YYYY-MM-DDTHH:MM:SS. */
  crashDatetime: string;
  /** Oblast code of the places table (SOF = the capital, SFO = Sofia district). */
  regionCode: string;
  /** The oblast's canonical name ("София-град", "Пловдив"). */
  region: string;
  municipality: string | null;
  /** Settlement as "гр. Пловдив" / "с. Вакарел" (prefix normalised, upper-case names re-cased). */
  location: string | null;
  crashType: string | null;
  ptpPlace: string | null;
  /** Decimal text with a dot ("42.6977"), null when the row has no usable coordinates. */
  latitude: string | null;
  longitude: string | null;
  coordinateFix: CoordinateFix;
  died: number;
  injured: number;
  /** Null when the cell is blank. */
  participants: number | null;
  isMajor: boolean;
  /** 1-based row of the source (the header is row 1 in a table; the first object is 1 in a list of objects). */
  sourceRow: number;
}

export interface PtpFile {
  format: PtpSourceFormat;
  records: PtpRecord[];
}

export { MalformedSourceError } from '../../../ingest/errors.ts';
