// The places table: transliteration, oblast and city lookup, and checks against the real extracts
// (the ЕКАТТЕ register's settlements and oblasts, the ministry's oblast names) when they are present.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CITIES, findCities, findOblast, OBLASTS, transliterate } from '../../reference/places.ts';
import { distanceM } from '../../domains/ptp/ingest/clusters.ts';
import { projectRoot } from '../ingest/fixtures.ts';

const geocodingDir = resolve(projectRoot, '../shared/data/real/bg-geocoding');
const realPtpDir = resolve(projectRoot, '../shared/data/real/ptp');
const absent = (file: string) => (existsSync(file) ? false : `${file} absent (real extract not available)`);

test('transliteration follows the 2009 act: ж zh, ц ts, щ sht, ъ a, ю yu, я ya, final "ия" ia', () => {
  const cases: Array<[string, string]> = [
    ['София', 'Sofia'], ['Пловдив', 'Plovdiv'], ['Велико Търново', 'Veliko Tarnovo'], ['Кърджали', 'Kardzhali'],
    ['Шумен', 'Shumen'], ['Търговище', 'Targovishte'], ['Ямбол', 'Yambol'], ['Враца', 'Vratsa'],
    ['Кюстендил', 'Kyustendil'], ['Пазарджик', 'Pazardzhik'], ['Провадия', 'Provadia'], ['Ихтиман', 'Ihtiman'],
    ['Горна Оряховица', 'Gorna Oryahovitsa'], ['Българово', 'Balgarovo'], ['ЩЪРКЕЛ', 'SHTARKEL'], ['Ия', 'Ia'],
  ];
  for (const [bg, latin] of cases) assert.equal(transliterate(bg), latin, bg);
});

test('oblasts: Sofia is the capital, Софийска the district; any case, Latin or Cyrillic, with "област"', () => {
  const cases: Array<[string, string]> = [
    ['Sofia', 'SOF'], ['SOFIA', 'SOF'], ['София', 'SOF'], ['СОФИЯ', 'SOF'], ['София-град', 'SOF'], ['Sofia City', 'SOF'],
    ['София (столица)', 'SOF'], ['Софийска', 'SFO'], ['СОФИЙСКА', 'SFO'], ['Sofia Province', 'SFO'], ['Софийска област', 'SFO'],
    ['Plovdiv', 'PDV'], ['Пловдив', 'PDV'], ['обл. Пловдив', 'PDV'], ['Област Варна', 'VAR'], ['Varna Province', 'VAR'],
    ['VELIKO TARNOVO', 'VTR'], ['велико търново', 'VTR'], ['Veliko Turnovo', 'VTR'], ['PDV', 'PDV'],
  ];
  for (const [name, code] of cases) assert.equal(findOblast(name)?.code, code, name);
  for (const name of ['Narnia', '', 'област', 'Sofia Sofia']) assert.equal(findOblast(name), null, name);
  assert.equal(OBLASTS.length, 28);
  assert.equal(new Set(OBLASTS.map((o) => o.code)).size, 28);
});

test('cities: Sofia/София, Plovdiv/Пловдив and prefixed forms resolve to one table entry', () => {
  const cases: Array<[string, string]> = [
    ['Sofia', 'София'], ['софия', 'София'], ['гр. София', 'София'], ['гр.София', 'София'], ['Sofiya', 'София'],
    ['Plovdiv', 'Пловдив'], ['ПЛОВДИВ', 'Пловдив'], ['Veliko Turnovo', 'Велико Търново'], ['veliko-tarnovo', 'Велико Търново'],
    ['с. Вакарел', 'Вакарел'], ['Vakarel', 'Вакарел'], ['Gorna Oryahovitsa', 'Горна Оряховица'],
  ];
  for (const [name, city] of cases) assert.deepEqual(findCities(name).map((c) => c.name), [city], name);
  assert.deepEqual(findCities('Atlantis'), []);
  for (const city of CITIES) {
    assert.equal(transliterate(city.name), city.nameEn, `${city.name}: nameEn is the official transliteration`);
    assert.ok(findOblast(city.oblast), `${city.name}: oblast ${city.oblast}`);
  }
});

test('real ЕКАТТЕ settlements: the transliteration gives the register\'s Latin name for every settlement', { skip: absent(resolve(geocodingDir, 'settlements.csv')) }, () => {
  const rows: Array<{ name_bg: string; name_en: string }> = parse(readFileSync(resolve(geocodingDir, 'settlements.csv')), { columns: true });
  const named = rows.filter((row) => row.name_en !== '');
  assert.ok(named.length > 4500, `${named.length} settlements with a Latin name`);
  const wrong = named.filter((row) => transliterate(row.name_bg) !== row.name_en).map((row) => `${row.name_bg} -> ${transliterate(row.name_bg)} (register: ${row.name_en})`);
  assert.deepEqual(wrong, []);
});

test('real ЕКАТТЕ coordinates: every city of the table is within 3 km of its register point, in the same municipality and oblast', { skip: absent(resolve(geocodingDir, 'settlements_loc.csv')) }, () => {
  const rows: Array<Record<string, string>> = parse(readFileSync(resolve(geocodingDir, 'settlements_loc.csv')), { columns: true });
  for (const city of CITIES) {
    const candidates = rows.filter((row) => row.name === city.name && row.village === (city.kind === 'city' ? '0' : '1') && row.geo.includes(','));
    const distances = candidates.map((row) => {
      const [lon, lat] = row.geo.split(',').map(Number); // the register writes "lon,lat"
      return { row, metres: distanceM(city.lat, city.lon, lat, lon) };
    }).sort((a, b) => a.metres - b.metres);
    assert.ok(distances.length > 0, `${city.name}: not in the register`);
    const { row, metres } = distances[0];
    assert.ok(metres < 3000, `${city.name}: ${Math.round(metres)} m from the register's point`);
    assert.equal(row.municipality, city.municipality, city.name);
    const oblast = findOblast(city.oblast)!;
    // The register names the capital's oblast "София (столица)" and the district "София".
    const registerOblast = row.province === 'София' ? 'SFO' : findOblast(row.province)?.code;
    assert.equal(registerOblast, oblast.code, `${city.name}: register oblast ${row.province}`);
  }
});

test('real ЕКАТТЕ oblast list: every code and Cyrillic name resolves to the same oblast', { skip: absent(resolve(realPtpDir, 'ek_obl.json')) }, () => {
  const oblasts: Array<{ oblast?: string; name?: string; name_en?: string }> = JSON.parse(readFileSync(resolve(realPtpDir, 'ek_obl.json'), 'utf8'));
  const real = oblasts.filter((o) => o.oblast);
  assert.equal(real.length, 28);
  for (const { oblast, name, name_en } of real) {
    assert.equal(findOblast(oblast!)?.code, oblast, oblast);
    // The register calls the district plain "София"; the specification gives that name to the capital.
    if (oblast === 'SFO') {
      assert.equal(findOblast(name!)?.code, 'SOF');
      continue;
    }
    assert.equal(findOblast(name!)?.code, oblast, name);
    assert.equal(findOblast(name_en!)?.code, oblast, name_en);
  }
});

test('real ministry statistics: the 28 upper-case oblast names (СОФИЯ capital, СОФИЙСКА district) all resolve', { skip: absent(resolve(realPtpDir, 'ptp01.01-30.06.2025.json')) }, () => {
  const rows: string[][] = JSON.parse(readFileSync(resolve(realPtpDir, 'ptp01.01-30.06.2025.json'), 'utf8'));
  const names = rows.slice(1).map((row) => row[0]).filter((name) => name !== 'Общо');
  assert.equal(names.length, 28);
  const codes = names.map((name) => findOblast(name)?.code);
  assert.equal(new Set(codes).size, 28, codes.join(','));
  assert.equal(findOblast('СОФИЯ')?.code, 'SOF');
  assert.equal(findOblast('СОФИЙСКА')?.code, 'SFO');
  assert.ok(names.includes('СОФИЯ') && names.includes('СОФИЙСКА'));
});
