// The project's own table of Bulgarian places for the PTP domain: the 28 oblasts and the cities and
// towns the sample is placed around, with Cyrillic names, Latin names in the official transliteration
// (Transliteration Act 2009, the "streamlined system") and the names the interior ministry writes.
// Pure data and pure functions: the ingest (region names of source rows, sample placement) and the
// queries (city and region lookup) both read it.

export interface Oblast {
  /** Three-letter oblast code of the ЕКАТТЕ register (SOF = the capital, SFO = Sofia district). */
  code: string;
  /** The name served in `region`. */
  name: string;
  /** Latin name (official transliteration; the capital and the district get their English names). */
  nameEn: string;
  /** Further names that mean this oblast: the ministry's upper-case form, register names, English forms. */
  aliases: readonly string[];
}

export const OBLASTS: readonly Oblast[] = [
  { code: 'BLG', name: 'Благоевград', nameEn: 'Blagoevgrad', aliases: [] },
  { code: 'BGS', name: 'Бургас', nameEn: 'Burgas', aliases: ['Bourgas'] },
  { code: 'VAR', name: 'Варна', nameEn: 'Varna', aliases: [] },
  { code: 'VTR', name: 'Велико Търново', nameEn: 'Veliko Tarnovo', aliases: ['Veliko Turnovo'] },
  { code: 'VID', name: 'Видин', nameEn: 'Vidin', aliases: [] },
  { code: 'VRC', name: 'Враца', nameEn: 'Vratsa', aliases: ['Vratza'] },
  { code: 'GAB', name: 'Габрово', nameEn: 'Gabrovo', aliases: [] },
  { code: 'DOB', name: 'Добрич', nameEn: 'Dobrich', aliases: [] },
  { code: 'KRZ', name: 'Кърджали', nameEn: 'Kardzhali', aliases: ['Kardjali', 'Kurdzhali'] },
  { code: 'KNL', name: 'Кюстендил', nameEn: 'Kyustendil', aliases: [] },
  { code: 'LOV', name: 'Ловеч', nameEn: 'Lovech', aliases: [] },
  { code: 'MON', name: 'Монтана', nameEn: 'Montana', aliases: [] },
  { code: 'PAZ', name: 'Пазарджик', nameEn: 'Pazardzhik', aliases: ['Pazardjik'] },
  { code: 'PER', name: 'Перник', nameEn: 'Pernik', aliases: [] },
  { code: 'PVN', name: 'Плевен', nameEn: 'Pleven', aliases: [] },
  { code: 'PDV', name: 'Пловдив', nameEn: 'Plovdiv', aliases: [] },
  { code: 'RAZ', name: 'Разград', nameEn: 'Razgrad', aliases: [] },
  { code: 'RSE', name: 'Русе', nameEn: 'Ruse', aliases: ['Rousse'] },
  { code: 'SLS', name: 'Силистра', nameEn: 'Silistra', aliases: [] },
  { code: 'SLV', name: 'Сливен', nameEn: 'Sliven', aliases: [] },
  { code: 'SML', name: 'Смолян', nameEn: 'Smolyan', aliases: [] },
  // The spec: region `Sofia` is the capital (the ministry writes it "СОФИЯ"); the district is `Софийска`.
  {
    code: 'SOF',
    name: 'София-град',
    nameEn: 'Sofia City',
    aliases: ['София', 'София град', 'София (столица)', 'Столична', 'Sofia', 'Sofiya', 'Sofia-grad', 'Sofia grad',
      'Sofia City Province', 'Sofia (capital)', 'Sofia capital', 'Sofia (stolitsa)', 'Sofia-Grad'],
  },
  {
    code: 'SFO',
    name: 'Софийска',
    nameEn: 'Sofia Province',
    aliases: ['Софийска област', 'София област', 'област София', 'София-област', 'Sofiyska', 'Sofiyska oblast',
      'Sofia oblast', 'Sofia District', 'Sofia Region', 'Sofia-oblast'],
  },
  { code: 'SZR', name: 'Стара Загора', nameEn: 'Stara Zagora', aliases: [] },
  { code: 'TGV', name: 'Търговище', nameEn: 'Targovishte', aliases: ['Turgovishte'] },
  { code: 'HKV', name: 'Хасково', nameEn: 'Haskovo', aliases: ['Khaskovo'] },
  { code: 'SHU', name: 'Шумен', nameEn: 'Shumen', aliases: ['Shoumen'] },
  { code: 'JAM', name: 'Ямбол', nameEn: 'Yambol', aliases: [] },
];

export type SettlementKind = 'city' | 'village';

export interface City {
  /** Settlement name in Cyrillic, without the "гр."/"с." prefix. */
  name: string;
  /** Official transliteration. */
  nameEn: string;
  kind: SettlementKind;
  oblast: string;
  municipality: string;
  /** Centre, WGS84 degrees (checked against the ЕКАТТЕ settlement coordinates by a test). */
  lat: number;
  lon: number;
  /** Older or foreign Latin spellings that should also find the place. */
  aliases?: readonly string[];
  /** Relative traffic weight for the sample generator (roughly the population in thousands). */
  weight: number;
}

export const CITIES: readonly City[] = [
  { name: 'София', nameEn: 'Sofia', kind: 'city', oblast: 'SOF', municipality: 'Столична', lat: 42.6977, lon: 23.3219, weight: 1200, aliases: ['Sofiya'] },
  { name: 'Пловдив', nameEn: 'Plovdiv', kind: 'city', oblast: 'PDV', municipality: 'Пловдив', lat: 42.1354, lon: 24.7453, weight: 340 },
  { name: 'Варна', nameEn: 'Varna', kind: 'city', oblast: 'VAR', municipality: 'Варна', lat: 43.2141, lon: 27.9147, weight: 335 },
  { name: 'Бургас', nameEn: 'Burgas', kind: 'city', oblast: 'BGS', municipality: 'Бургас', lat: 42.5048, lon: 27.4626, weight: 200, aliases: ['Bourgas'] },
  { name: 'Русе', nameEn: 'Ruse', kind: 'city', oblast: 'RSE', municipality: 'Русе', lat: 43.8356, lon: 25.9657, weight: 145, aliases: ['Rousse'] },
  { name: 'Стара Загора', nameEn: 'Stara Zagora', kind: 'city', oblast: 'SZR', municipality: 'Стара Загора', lat: 42.4258, lon: 25.6345, weight: 135 },
  { name: 'Плевен', nameEn: 'Pleven', kind: 'city', oblast: 'PVN', municipality: 'Плевен', lat: 43.417, lon: 24.6067, weight: 95 },
  { name: 'Сливен', nameEn: 'Sliven', kind: 'city', oblast: 'SLV', municipality: 'Сливен', lat: 42.6817, lon: 26.3229, weight: 85 },
  { name: 'Добрич', nameEn: 'Dobrich', kind: 'city', oblast: 'DOB', municipality: 'Добрич', lat: 43.5726, lon: 27.8273, weight: 80 },
  { name: 'Шумен', nameEn: 'Shumen', kind: 'city', oblast: 'SHU', municipality: 'Шумен', lat: 43.2712, lon: 26.9361, weight: 75, aliases: ['Shoumen'] },
  { name: 'Перник', nameEn: 'Pernik', kind: 'city', oblast: 'PER', municipality: 'Перник', lat: 42.6052, lon: 23.0378, weight: 70 },
  { name: 'Хасково', nameEn: 'Haskovo', kind: 'city', oblast: 'HKV', municipality: 'Хасково', lat: 41.9344, lon: 25.5554, weight: 70 },
  { name: 'Ямбол', nameEn: 'Yambol', kind: 'city', oblast: 'JAM', municipality: 'Ямбол', lat: 42.4842, lon: 26.5035, weight: 65 },
  { name: 'Пазарджик', nameEn: 'Pazardzhik', kind: 'city', oblast: 'PAZ', municipality: 'Пазарджик', lat: 42.1928, lon: 24.3336, weight: 65, aliases: ['Pazardjik'] },
  { name: 'Благоевград', nameEn: 'Blagoevgrad', kind: 'city', oblast: 'BLG', municipality: 'Благоевград', lat: 42.0209, lon: 23.0943, weight: 65 },
  { name: 'Велико Търново', nameEn: 'Veliko Tarnovo', kind: 'city', oblast: 'VTR', municipality: 'Велико Търново', lat: 43.0757, lon: 25.6172, weight: 65, aliases: ['Veliko Turnovo', 'Tarnovo'] },
  { name: 'Враца', nameEn: 'Vratsa', kind: 'city', oblast: 'VRC', municipality: 'Враца', lat: 43.2102, lon: 23.5529, weight: 55, aliases: ['Vratza'] },
  { name: 'Габрово', nameEn: 'Gabrovo', kind: 'city', oblast: 'GAB', municipality: 'Габрово', lat: 42.8742, lon: 25.3187, weight: 50 },
  { name: 'Видин', nameEn: 'Vidin', kind: 'city', oblast: 'VID', municipality: 'Видин', lat: 43.9962, lon: 22.8679, weight: 40 },
  { name: 'Кърджали', nameEn: 'Kardzhali', kind: 'city', oblast: 'KRZ', municipality: 'Кърджали', lat: 41.6338, lon: 25.3777, weight: 45, aliases: ['Kardjali', 'Kurdzhali'] },
  { name: 'Кюстендил', nameEn: 'Kyustendil', kind: 'city', oblast: 'KNL', municipality: 'Кюстендил', lat: 42.2839, lon: 22.6911, weight: 40 },
  { name: 'Ловеч', nameEn: 'Lovech', kind: 'city', oblast: 'LOV', municipality: 'Ловеч', lat: 43.137, lon: 24.7142, weight: 35 },
  { name: 'Монтана', nameEn: 'Montana', kind: 'city', oblast: 'MON', municipality: 'Монтана', lat: 43.4125, lon: 23.225, weight: 40 },
  { name: 'Разград', nameEn: 'Razgrad', kind: 'city', oblast: 'RAZ', municipality: 'Разград', lat: 43.5259, lon: 26.5241, weight: 30 },
  { name: 'Силистра', nameEn: 'Silistra', kind: 'city', oblast: 'SLS', municipality: 'Силистра', lat: 44.1171, lon: 27.2606, weight: 30 },
  { name: 'Смолян', nameEn: 'Smolyan', kind: 'city', oblast: 'SML', municipality: 'Смолян', lat: 41.5774, lon: 24.7011, weight: 28 },
  { name: 'Търговище', nameEn: 'Targovishte', kind: 'city', oblast: 'TGV', municipality: 'Търговище', lat: 43.2512, lon: 26.5723, weight: 35, aliases: ['Turgovishte'] },
  { name: 'Казанлък', nameEn: 'Kazanlak', kind: 'city', oblast: 'SZR', municipality: 'Казанлък', lat: 42.6194, lon: 25.393, weight: 45, aliases: ['Kazanluk'] },
  { name: 'Асеновград', nameEn: 'Asenovgrad', kind: 'city', oblast: 'PDV', municipality: 'Асеновград', lat: 42.0167, lon: 24.8667, weight: 45 },
  { name: 'Димитровград', nameEn: 'Dimitrovgrad', kind: 'city', oblast: 'HKV', municipality: 'Димитровград', lat: 42.05, lon: 25.6, weight: 35 },
  { name: 'Дупница', nameEn: 'Dupnitsa', kind: 'city', oblast: 'KNL', municipality: 'Дупница', lat: 42.2667, lon: 23.1167, weight: 30 },
  { name: 'Петрич', nameEn: 'Petrich', kind: 'city', oblast: 'BLG', municipality: 'Петрич', lat: 41.3947, lon: 23.207, weight: 27 },
  { name: 'Сандански', nameEn: 'Sandanski', kind: 'city', oblast: 'BLG', municipality: 'Сандански', lat: 41.5667, lon: 23.2833, weight: 25 },
  { name: 'Кресна', nameEn: 'Kresna', kind: 'city', oblast: 'BLG', municipality: 'Кресна', lat: 41.7236, lon: 23.1547, weight: 4 },
  { name: 'Гоце Делчев', nameEn: 'Gotse Delchev', kind: 'city', oblast: 'BLG', municipality: 'Гоце Делчев', lat: 41.5667, lon: 23.7333, weight: 19 },
  { name: 'Ботевград', nameEn: 'Botevgrad', kind: 'city', oblast: 'SFO', municipality: 'Ботевград', lat: 42.9073, lon: 23.7937, weight: 20 },
  { name: 'Самоков', nameEn: 'Samokov', kind: 'city', oblast: 'SFO', municipality: 'Самоков', lat: 42.337, lon: 23.5528, weight: 26 },
  { name: 'Ихтиман', nameEn: 'Ihtiman', kind: 'city', oblast: 'SFO', municipality: 'Ихтиман', lat: 42.4333, lon: 23.8167, weight: 12 },
  { name: 'Елин Пелин', nameEn: 'Elin Pelin', kind: 'city', oblast: 'SFO', municipality: 'Елин Пелин', lat: 42.6667, lon: 23.6, weight: 7 },
  { name: 'Вакарел', nameEn: 'Vakarel', kind: 'village', oblast: 'SFO', municipality: 'Ихтиман', lat: 42.5667, lon: 23.7, weight: 3 },
  { name: 'Несебър', nameEn: 'Nesebar', kind: 'city', oblast: 'BGS', municipality: 'Несебър', lat: 42.6594, lon: 27.7361, weight: 12, aliases: ['Nessebar'] },
  { name: 'Поморие', nameEn: 'Pomorie', kind: 'city', oblast: 'BGS', municipality: 'Поморие', lat: 42.5564, lon: 27.6397, weight: 14 },
  { name: 'Созопол', nameEn: 'Sozopol', kind: 'city', oblast: 'BGS', municipality: 'Созопол', lat: 42.4178, lon: 27.6956, weight: 5 },
  { name: 'Айтос', nameEn: 'Aytos', kind: 'city', oblast: 'BGS', municipality: 'Айтос', lat: 42.7, lon: 27.25, weight: 19, aliases: ['Aitos'] },
  { name: 'Карнобат', nameEn: 'Karnobat', kind: 'city', oblast: 'BGS', municipality: 'Карнобат', lat: 42.65, lon: 26.9833, weight: 18 },
  { name: 'Карлово', nameEn: 'Karlovo', kind: 'city', oblast: 'PDV', municipality: 'Карлово', lat: 42.6333, lon: 24.8, weight: 22 },
  { name: 'Велинград', nameEn: 'Velingrad', kind: 'city', oblast: 'PAZ', municipality: 'Велинград', lat: 42.0275, lon: 23.9914, weight: 20 },
  { name: 'Панагюрище', nameEn: 'Panagyurishte', kind: 'city', oblast: 'PAZ', municipality: 'Панагюрище', lat: 42.5, lon: 24.1833, weight: 16 },
  { name: 'Лом', nameEn: 'Lom', kind: 'city', oblast: 'MON', municipality: 'Лом', lat: 43.8236, lon: 23.2364, weight: 20 },
  { name: 'Горна Оряховица', nameEn: 'Gorna Oryahovitsa', kind: 'city', oblast: 'VTR', municipality: 'Горна Оряховица', lat: 43.1236, lon: 25.7019, weight: 30 },
  { name: 'Свищов', nameEn: 'Svishtov', kind: 'city', oblast: 'VTR', municipality: 'Свищов', lat: 43.6167, lon: 25.35, weight: 24 },
  { name: 'Нова Загора', nameEn: 'Nova Zagora', kind: 'city', oblast: 'SLV', municipality: 'Нова Загора', lat: 42.4833, lon: 26.0167, weight: 20 },
  { name: 'Чирпан', nameEn: 'Chirpan', kind: 'city', oblast: 'SZR', municipality: 'Чирпан', lat: 42.2, lon: 25.3333, weight: 15 },
  { name: 'Харманли', nameEn: 'Harmanli', kind: 'city', oblast: 'HKV', municipality: 'Харманли', lat: 41.9333, lon: 25.9, weight: 18 },
  { name: 'Свиленград', nameEn: 'Svilengrad', kind: 'city', oblast: 'HKV', municipality: 'Свиленград', lat: 41.7667, lon: 26.2, weight: 17 },
  { name: 'Троян', nameEn: 'Troyan', kind: 'city', oblast: 'LOV', municipality: 'Троян', lat: 42.8944, lon: 24.7158, weight: 20 },
  { name: 'Севлиево', nameEn: 'Sevlievo', kind: 'city', oblast: 'GAB', municipality: 'Севлиево', lat: 43.0256, lon: 25.1139, weight: 21 },
  { name: 'Радомир', nameEn: 'Radomir', kind: 'city', oblast: 'PER', municipality: 'Радомир', lat: 42.5469, lon: 22.9619, weight: 13 },
  { name: 'Провадия', nameEn: 'Provadia', kind: 'city', oblast: 'VAR', municipality: 'Провадия', lat: 43.1833, lon: 27.4333, weight: 12, aliases: ['Provadiya'] },
  { name: 'Балчик', nameEn: 'Balchik', kind: 'city', oblast: 'DOB', municipality: 'Балчик', lat: 43.4167, lon: 28.1667, weight: 11 },
  { name: 'Попово', nameEn: 'Popovo', kind: 'city', oblast: 'TGV', municipality: 'Попово', lat: 43.35, lon: 26.2333, weight: 14 },
  { name: 'Козлодуй', nameEn: 'Kozloduy', kind: 'city', oblast: 'VRC', municipality: 'Козлодуй', lat: 43.7769, lon: 23.7203, weight: 13 },
];

// ---------------------------------------------------------------------------------------------
// Transliteration and name keys

const LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm',
  н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'sht', ъ: 'a', ь: 'y', ю: 'yu', я: 'ya',
};

/**
 * Bulgarian Cyrillic -> Latin by the Transliteration Act (2009): the table above, and "ия" at the end
 * of a word is "ia" (София -> Sofia). Capitals stay capitals (Щ -> Sht, ЩЕ -> SHTE is not needed here).
 */
export function transliterate(text: string): string {
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    const lower = char.toLowerCase();
    const next = chars[i + 1]?.toLowerCase();
    const afterNext = chars[i + 2];
    if (lower === 'и' && next === 'я' && (afterNext === undefined || !/\p{L}/u.test(afterNext))) {
      out += char === lower ? 'ia' : 'Ia';
      i++;
      continue;
    }
    const latin = LATIN[lower];
    if (latin === undefined) {
      out += char;
    } else if (char === lower) {
      out += latin;
    } else {
      const nextIsUpper = chars[i + 1] !== undefined && chars[i + 1] !== chars[i + 1].toLowerCase();
      out += nextIsUpper ? latin.toUpperCase() : latin[0].toUpperCase() + latin.slice(1);
    }
  }
  return out;
}

const SETTLEMENT_PREFIX = /^(гр|град|с|село|к\.к|кк|gr|grad|s|selo)\.?\s+|^(гр|с|gr|s)\./u;

/** Lower case, one space between words, hyphens and dots as spaces, no settlement prefix ("гр.", "с."). */
export function placeKey(text: string): string {
  const base = text.normalize('NFC').toLowerCase().trim().replace(/\s+/g, ' ');
  return base
    .replace(SETTLEMENT_PREFIX, '')
    .replace(/[-–.,'"`’]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every key a settlement name is found by: its Cyrillic key and its transliterated key. */
export function settlementKeys(settlement: string): string[] {
  const cyrillic = placeKey(settlement);
  return [...new Set([cyrillic, placeKey(transliterate(cyrillic))])];
}

// ---------------------------------------------------------------------------------------------
// Oblasts by name

const GENERIC_WORDS = new Set(['област', 'обл', 'oblast', 'obl', 'province', 'region', 'district']);

const oblastByKey = new Map<string, Oblast>();
for (const oblast of OBLASTS) {
  for (const name of [oblast.code, oblast.name, oblast.nameEn, ...oblast.aliases]) {
    for (const key of settlementKeys(name)) {
      const known = oblastByKey.get(key);
      if (known && known !== oblast) throw new Error(`places: "${name}" names both ${known.code} and ${oblast.code}`);
      oblastByKey.set(key, oblast);
    }
  }
}

/**
 * The oblast a name means, in any case, Cyrillic or Latin: exact names and aliases first (so
 * "Sofia Province" is the district), then without the words "област"/"province"/... ("Област Варна").
 */
export function findOblast(name: string): Oblast | null {
  const key = placeKey(name);
  const exact = oblastByKey.get(key) ?? oblastByKey.get(placeKey(transliterate(key)));
  if (exact) return exact;
  const stripped = key.split(' ').filter((word) => !GENERIC_WORDS.has(word)).join(' ');
  if (stripped === '' || stripped === key) return null;
  return oblastByKey.get(stripped) ?? oblastByKey.get(placeKey(transliterate(stripped))) ?? null;
}

export function oblastByCode(code: string): Oblast {
  const oblast = OBLASTS.find((o) => o.code === code);
  if (!oblast) throw new Error(`places: no oblast ${code}`);
  return oblast;
}

// ---------------------------------------------------------------------------------------------
// Cities by name

/** Every key of a city of the table: Cyrillic, official Latin, and the listed older spellings. */
export function cityKeys(city: City): string[] {
  return [...new Set([...settlementKeys(city.name), placeKey(city.nameEn), ...(city.aliases ?? []).map(placeKey)])];
}

const citiesByKey = new Map<string, City[]>();
for (const city of CITIES) {
  for (const key of cityKeys(city)) citiesByKey.set(key, [...(citiesByKey.get(key) ?? []), city]);
}

/** Cities of the table a name means (any case, Cyrillic or Latin, with or without "гр."). */
export function findCities(name: string): City[] {
  const key = placeKey(name);
  return citiesByKey.get(key) ?? citiesByKey.get(placeKey(transliterate(key))) ?? [];
}

/** The keys a requested city name is looked up by: its own key and its transliteration. */
export function lookupKeys(name: string): string[] {
  const key = placeKey(name);
  const keys = new Set([key, placeKey(transliterate(key))]);
  for (const city of findCities(name)) for (const k of settlementKeys(city.name)) keys.add(k);
  return [...keys].filter((k) => k !== '');
}

/** "гр. София" / "с. Вакарел": how the ministry writes a settlement. */
export function settlementLabel(city: City): string {
  return `${city.kind === 'city' ? 'гр.' : 'с.'} ${city.name}`;
}
