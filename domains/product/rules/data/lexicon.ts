// Attribute vocabularies in English and Bulgarian, as data. Each entry maps a canonical value (English,
// lower case: the value the API returns) to the phrases that name it. Bulgarian adjectives change with
// gender and number (черен / черна / черно / черни): the normaliser in rules/text.ts reduces a word to a
// key (черн), and the forms it cannot reduce to the same key (бял / бели, син / синьо) are listed here
// as word-form tables. Changing this file changes answers: bump RULES_VERSION (rules/version.ts).

export type Vocabulary = ReadonlyArray<readonly [canonical: string, phrases: string]>;

export const COLORS: Vocabulary = [
  ['black', 'black|jet black|черен|черна|черно|черни'],
  ['white', 'white|off-white|бял|бяла|бяло|бели'],
  ['red', 'red|червен|червена|червено|червени'],
  ['navy', 'navy|navy blue|dark blue|тъмносин|тъмносиня|тъмносиньо|тъмносини|тъмно син|тъмно синя|нейви'],
  ['blue', 'blue|light blue|sky blue|син|синя|синьо|сини|светлосин|светлосиня|светлосиньо|светлосини'],
  ['green', 'green|olive green|khaki|зелен|зелена|зелено|зелени|каки|маслинено зелен'],
  ['yellow', 'yellow|жълт|жълта|жълто|жълти'],
  ['orange', 'orange|оранжев|оранжева|оранжево|оранжеви'],
  ['purple', 'purple|violet|lilac|лилав|лилава|лилаво|лилави|виолетов|виолетова|виолетово|виолетови'],
  ['pink', 'pink|rose pink|розов|розова|розово|розови'],
  ['brown', 'brown|chocolate brown|кафяв|кафява|кафяво|кафяви'],
  ['grey', 'grey|gray|сив|сива|сиво|сиви|графит'],
  ['beige', 'beige|nude|бежов|бежова|бежово|бежови|кремав|кремава|кремаво|кремави'],
  ['gold', 'gold|golden|златен|златна|златно|златни|златист|златиста|златисто|златисти'],
  ['silver', 'silver|сребърен|сребърна|сребърно|сребърни|сребрист|сребриста|сребристо|сребристи'],
  ['turquoise', 'turquoise|teal|тюркоазен|тюркоазена|тюркоазено|тюркоазени|тюркоаз'],
  ['burgundy', 'burgundy|maroon|wine red|бордо|бордо червен|винено червен'],
  ['multicolor', 'multicolor|multicolour|multi-colour|многоцветен|многоцветна|многоцветно|многоцветни|пъстър|пъстра|пъстро|пъстри|шарен|шарена|шарено|шарени'],
];

/** Words that name a colour only in some senses: never a colour when directly followed by these. */
export const COLOR_BLOCKERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['red', ['wine', 'вино', 'пипер']],
  ['white', ['wine', 'вино', 'сирене']],
  ['green', ['tea', 'чай']],
  ['black', ['tea', 'чай', 'friday']],
  ['orange', ['juice', 'сок']],
  ['gold', ['card']],
]);

export const MATERIALS: Vocabulary = [
  ['cotton', 'cotton|organic cotton|памук|памучен|памучна|памучно|памучни|100% памук'],
  ['leather', 'leather|genuine leather|faux leather|естествена кожа|еко кожа|кожен|кожена|кожено|кожени|кожа'],
  ['suede', 'suede|велур|велурен|велурена|велурени'],
  ['wool', 'wool|merino|merino wool|вълна|вълнен|вълнена|вълнено|вълнени|мерино'],
  ['cashmere', 'cashmere|кашмир|кашмирен|кашмирена|кашмирени'],
  ['silk', 'silk|коприна|копринен|копринена|копринено|копринени'],
  ['linen', 'linen|лен|ленен|ленена|ленено|ленени'],
  ['denim', 'denim|деним|дънков|дънкова|дънково|дънкови'],
  ['polyester', 'polyester|полиестер|полиестерен|полиестерна'],
  ['nylon', 'nylon|найлон|найлонов|найлонова'],
  ['viscose', 'viscose|rayon|вискоза'],
  ['stainless steel', 'stainless steel|неръждаема стомана|инокс'],
  ['steel', 'steel|стомана|стоманен|стоманена|стоманено|стоманени'],
  ['aluminium', 'aluminium|aluminum|алуминий|алуминиев|алуминиева|алуминиево|алуминиеви'],
  ['metal', 'metal|метал|метален|метална|метално|метални'],
  ['wood', 'wood|wooden|solid wood|oak|дърво|дървен|дървена|дървено|дървени|масив|дъб|дъбов'],
  ['bamboo', 'bamboo|бамбук|бамбуков|бамбукова|бамбукови'],
  ['glass', 'glass|стъкло|стъклен|стъклена|стъклено|стъклени'],
  ['ceramic', 'ceramic|ceramics|керамика|керамичен|керамична|керамично|керамични'],
  ['porcelain', 'porcelain|порцелан|порцеланов|порцеланова|порцеланови'],
  ['plastic', 'plastic|пластмаса|пластмасов|пластмасова|пластмасово|пластмасови'],
  ['silicone', 'silicone|силикон|силиконов|силиконова|силиконово|силиконови'],
  ['rubber', 'rubber|каучук|каучуков|каучукова|гумен|гумена|гумено|гумени'],
  ['gold', '14k gold|18k gold|solid gold|злато|златото'],
  ['sterling silver', 'sterling silver|925 silver|сребро 925|сребро'],
];

/** Material words that also mean something else in a context: `кожа` is skin in `крем за суха кожа`. */
export const MATERIAL_NOT_AFTER: ReadonlyMap<string, readonly string[]> = new Map([
  ['кожа', ['за', 'суха', 'мазна', 'чувствителна', 'нормална', 'комбинирана', 'лицето', 'зряла']],
  ['glass', ['tempered', 'wine', 'магнифицираща']],
  ['стъкло', ['закалено', 'протектор']],
]);

export const GENDERS: Vocabulary = [
  ['men', "men|men's|mens|man|male|for him|gentlemen|мъжки|мъжка|мъжко|за мъже|мъж|мъже"],
  ['women', "women|women's|womens|woman|ladies|lady|female|for her|дамски|дамска|дамско|женски|женска|женско|за жени|жена|жени|дама"],
  ['unisex', 'unisex|унисекс'],
  ['boys', "boys|boy|boys'|момчешки|момчешка|за момчета|момче|момчета"],
  ['girls', "girls|girl|girls'|момичешки|момичешка|за момичета|момиче|момичета"],
  ['kids', "kids|kid|children|children's|child|детски|детска|детско|за деца|дете|деца"],
  ['baby', 'baby|infant|newborn|toddler|бебешки|бебешка|бебешко|бебе|бебета|новородено'],
];

export const USES: Vocabulary = [
  ['running', 'running|jogging|marathon|бягане|джогинг|маратон'],
  ['hiking', 'hiking|trekking|trail|mountain|туризъм|трекинг|планина|планински|преходи'],
  ['training', 'training|gym|workout|fitness|тренировка|тренировки|фитнес|зала'],
  ['football', 'football|soccer|футбол'],
  ['basketball', 'basketball|баскетбол'],
  ['tennis', 'tennis|тенис'],
  ['swimming', 'swimming|swim|плуване|басейн'],
  ['cycling', 'cycling|колоездене'],
  ['gaming', 'gaming|gamer|геймърски|геймърска|гейминг|за игри'],
  ['office', 'office|business|work|офис|офиса|делови|работа'],
  ['school', 'school|back to school|училище|ученически|ученическа'],
  ['travel', 'travel|travelling|пътуване|пътувания|пътна|пътни'],
  ['outdoor', 'outdoor|outdoors|camping|на открито|открито|къмпинг'],
  ['casual', 'casual|everyday|daily wear|ежедневен|ежедневна|ежедневно|ежедневни|всекидневен'],
  ['formal', 'formal|evening|wedding|party|официален|официална|официално|официални|вечерен|вечерна|сватба|сватбен|парти'],
  ['kitchen', 'kitchen|cooking|baking|кухня|кухненски|кухненска|готвене|печене'],
  ['garden', 'garden|patio|backyard|градина|градински|градинска|двор'],
  ['home', 'home|household|дом|дома|домашен|домашна|домашни'],
  ['car', 'car|automotive|auto|кола|автомобил|автомобилен|авто'],
  ['winter', 'winter|snow|зимен|зимна|зимно|зимни|зима|сняг'],
  ['summer', 'summer|beach|летен|лятна|лятно|летни|лято|плаж|плажен|плажна'],
];

/** Known brands (canonical spelling). A brand found in the title becomes `attributes.brand` when none is given. */
export const BRANDS: readonly string[] = [
  'Adidas', 'Nike', 'Puma', 'Reebok', 'New Balance', 'Asics', 'Under Armour', 'Converse', 'Vans', 'Skechers', 'Salomon',
  'The North Face', 'Columbia', 'Timberland', 'Dr. Martens', 'Crocs', 'Birkenstock', 'Geox', 'Ecco', 'Clarks', "Levi's",
  'Zara', 'H&M', 'Mango', 'Tommy Hilfiger', 'Calvin Klein', 'Lacoste', 'Ralph Lauren', 'Guess', 'Diesel', 'Benetton',
  'Apple', 'Samsung', 'Xiaomi', 'Huawei', 'Google', 'OnePlus', 'Motorola', 'Nokia', 'Sony', 'LG', 'Lenovo', 'HP', 'Dell',
  'Asus', 'Acer', 'MSI', 'Microsoft', 'Logitech', 'Razer', 'JBL', 'Bose', 'Sennheiser', 'Beats', 'Philips', 'Panasonic',
  'Canon', 'Nikon', 'Fujifilm', 'GoPro', 'DJI', 'Anker', 'Baseus', 'Garmin', 'Fitbit', 'Amazfit', 'Kingston', 'SanDisk',
  'Western Digital', 'Seagate', 'TP-Link', 'Nintendo', 'PlayStation', 'Xbox', 'Epson', 'Brother', 'Intel', 'AMD', 'Nvidia',
  'Bosch', 'Makita', 'DeWalt', 'Black+Decker', 'Einhell', 'Karcher', 'Dyson', 'Rowenta', 'Tefal', 'Braun', 'Gorenje',
  'Beko', 'Whirlpool', 'Electrolux', 'Siemens', 'Miele', 'DeLonghi', 'Krups', 'Nespresso', 'Russell Hobbs', 'Bosch',
  'Ikea', 'Zwilling', 'Fiskars', 'Gardena', 'Weber',
  "L'Oreal", 'Nivea', 'Garnier', 'Maybelline', 'Dove', 'Colgate', 'Oral-B', 'Gillette', 'Pantene', 'Head & Shoulders',
  'La Roche-Posay', 'Vichy', 'Bioderma', 'Chanel', 'Dior', 'Lancome', 'Estee Lauder', 'Clinique', 'Rosa Impex', 'Refan',
  'Lego', 'Mattel', 'Barbie', 'Hasbro', 'Playmobil', 'Hot Wheels', 'Fisher-Price', 'Ravensburger', 'Chicco',
  'Pedigree', 'Whiskas', 'Royal Canin', 'Purina', 'Felix', 'Trixie',
  'Coca-Cola', 'Pepsi', 'Nestle', 'Lavazza', 'Jacobs', 'Milka', 'Lindt', 'Ferrero', 'Devin', 'Bankya', 'Zagorka',
  'Kamenitza', 'Pirinsko', 'Savex',
  'Michelin', 'Continental', 'Bridgestone', 'Pirelli', 'Goodyear', 'Castrol', 'Shell', 'Mobil', 'Varta', 'Bosch',
  'Decathlon', 'Wilson', 'Head', 'Babolat', 'Spalding', 'Mikasa', 'Everlast',
  'Penguin', 'Bloomsbury', 'Сиела', 'Хермес', 'Бард', 'Колибри', 'Егмонт',
];

/** Words that advertise rather than describe (they belong in promotions, not in a title). */
export const PROMOTIONAL: readonly string[] = [
  'sale', 'on sale', 'free shipping', 'free delivery', 'best price', 'cheapest', 'cheap', 'discount', 'bestseller',
  'best seller', 'hot deal', 'deal', 'limited offer', 'buy now', 'hurry', 'last chance', '100% original', 'top quality',
  'promo', 'black friday', 'clearance',
  'промоция', 'промо', 'разпродажба', 'намаление', 'безплатна доставка', 'безплатна', 'най-добра цена', 'най-ниска цена',
  'евтино', 'евтин', 'евтини', 'топ цена', 'хит', 'супер оферта', 'оферта', 'купи сега', 'бързай', 'последен шанс',
  'оригинал 100%', 'ликвидация',
];

/** Words that end the head of a title: the product is named before them (`Case for iPhone`, `Калъф за iPhone`). */
export const HEAD_BREAKERS: readonly string[] = [
  'for', 'with', 'by', 'from', 'in', 'and', 'compatible', 'fits', 'за', 'с', 'със', 'от', 'и', 'съвместим', 'съвместима', 'подходящ', 'подходяща',
];

/** Short words kept in capitals when an all-caps title is recased. */
export const ACRONYMS: readonly string[] = [
  'usb', 'led', 'lcd', 'oled', 'qled', 'tv', 'hd', 'uhd', '4k', '8k', 'ssd', 'hdd', 'ram', 'cpu', 'gpu', 'pc', 'gps', 'nfc',
  'spf', 'eu', 'uk', 'us', 'xs', 's', 'm', 'l', 'xl', 'xxl', 'xxxl', '2xl', '3xl', '4xl', 'bbq', 'dvd', 'cd', 'lp', 'rc', 'abs', 'pvc',
  'diy', 'wifi', 'bt', 'gb', 'tb', 'mb', 'mah', 'ml', 'mm', 'cm', 'kg', 'dslr', 'led', 'ps5', 'ps4', 'gsm', 'ii', 'iii', 'iv', 'bcaa',
];

/** Small words an English title keeps in lower case when recased. */
export const SMALL_WORDS_EN: readonly string[] = ['a', 'an', 'and', 'the', 'for', 'with', 'of', 'in', 'on', 'to', 'by', 'or', 'at'];

/**
 * The attributes a complete listing states (completeness and missing_attributes), by taxonomy node: the
 * most specific node listed for the category wins (leaf, then its branch, then its top level).
 * `a|b` is satisfied by either attribute.
 */
export const EXPECTED_ATTRIBUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ['1', ['brand', 'product_type', 'pack_size|weight']],
  ['2', ['brand', 'product_type', 'gender', 'color', 'size', 'material']],
  ['2.3', ['brand', 'product_type', 'color', 'material']],
  ['3', ['brand', 'product_type', 'model', 'color']],
  ['3.1.1', ['brand', 'product_type', 'model', 'color', 'storage']],
  ['3.2.1', ['brand', 'product_type', 'model', 'storage', 'screen_size']],
  ['3.2.3', ['brand', 'product_type', 'model', 'storage', 'screen_size']],
  ['3.4.1', ['brand', 'product_type', 'model', 'screen_size']],
  ['4', ['brand', 'product_type', 'weight|volume']],
  ['5', ['brand', 'product_type', 'volume|weight']],
  ['5.1.5', ['brand', 'product_type', 'model', 'color']],
  ['5.1.6', ['brand', 'product_type', 'model']],
  ['5.1.7', ['brand', 'product_type', 'model', 'power']],
  ['6', ['brand', 'product_type', 'color', 'material']],
  ['6.2', ['brand', 'product_type', 'model', 'power']],
  ['7', ['brand', 'product_type']],
  ['8', ['brand', 'product_type', 'use', 'color']],
  ['9', ['brand', 'product_type', 'age']],
  ['10', ['brand', 'product_type', 'model']],
  ['10.1.1', ['brand', 'product_type', 'model', 'size']],
]);

/** Attributes expected when the category is unknown. */
export const EXPECTED_DEFAULT: readonly string[] = ['brand', 'product_type'];
