// A malformed cell: the shared MalformedSourceError (file, 1-based line) plus the 1-based column,
// which the message names too ("column 5 (2007): ..."). Used by the Eurostat and World Bank readers.
import { MalformedSourceError } from '../errors.ts';

export class MalformedCellError extends MalformedSourceError {
  constructor(
    file: string,
    line: number,
    readonly column: number,
    columnName: string | null,
    problem: string,
  ) {
    super(file, line, `column ${column}${columnName ? ` (${columnName})` : ''}: ${problem}`);
  }
}

/** `dd/mm/yy hh:mm:ss`, `dd/mm/yyyy[ hh:mm[:ss]]` or ISO `yyyy-mm-dd[Thh:mm[:ss]]` -> `YYYY-MM-DDTHH:MM:SS`, or null when it is none. Two-digit years are 20yy. */
export function parseTimestamp(text: string): string | null {
  const t = text.trim();
  let y: number, mo: number, d: number, rest: string | undefined;
  let m = /^(\d{2})\/(\d{2})\/(\d{2}|\d{4})(?:[ T](.*))?$/.exec(t);
  if (m) {
    [d, mo, y, rest] = [Number(m[1]), Number(m[2]), m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]), m[4]];
  } else {
    m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](.*))?$/.exec(t);
    if (!m) return null;
    [y, mo, d, rest] = [Number(m[1]), Number(m[2]), Number(m[3]), m[4]];
  }
  let [hh, mi, ss] = [0, 0, 0];
  if (rest !== undefined && rest !== '') {
    const time = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(rest.trim());
    if (!time) return null;
    [hh, mi, ss] = [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)];
  }
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || hh > 23 || mi > 59 || ss > 59) return null;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${p(mo)}-${p(d)}T${p(hh)}:${p(mi)}:${p(ss)}`;
}
