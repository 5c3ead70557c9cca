// Hand-written listings with the answer a person expects: the category (dotted id), the attributes
// named and the exact set of issue codes. Half are Bulgarian; several are messy on purpose (capitals,
// keyword stuffing, emoji, HTML, no brand, a wrong category hint, the price as text).
import type { ProductInput } from '../../domains/product/rules/context.ts';

export interface Expected {
  category: string | null;
  language: 'en' | 'bg';
  attributes?: Record<string, string | null>;
  issues: string[];
}

export interface Listing {
  name: string;
  input: ProductInput & Record<string, unknown>;
  expected: Expected;
}

const FULL = { price: 49.9, currency: 'EUR', sku: 'SKU-1' };

export const LISTINGS: readonly Listing[] = [
  // ---------------------------------------------------------------- English
  {
    name: 'en clean running shoes',
    input: { ...FULL, brand: 'Nike', title: "Nike Air Max 90 Men's Running Shoes Black Size 42", description: 'Lightweight running shoes with a breathable mesh upper and a cushioned rubber sole. Black colour, sizes 40 to 46, for road running and everyday training.' },
    expected: { category: '2.2.2', language: 'en', attributes: { brand: 'Nike', gender: 'men', color: 'black', size: '42', use: 'running', model: 'Air Max 90' }, issues: [] },
  },
  {
    name: 'en smartphone with storage',
    input: { ...FULL, brand: 'Samsung', title: 'Samsung Galaxy S24 Smartphone 256GB Titanium Gray', description: 'The Galaxy S24 has a 6.2" display, 8GB RAM and 256GB of storage, a 50 MP camera and a 4000 mAh battery. Unlocked, dual SIM, in the original box with a USB-C cable.' },
    expected: { category: '3.1.1', language: 'en', attributes: { brand: 'Samsung', color: 'grey', storage: '256 GB', memory: '8 GB', model: 'Galaxy S24', screen_size: '6.2 in' }, issues: [] },
  },
  {
    name: 'en phone case names the phone after "for"',
    input: { ...FULL, brand: 'Spigen', title: 'Spigen Silicone Case for iPhone 15 Pro, Black', description: 'A slim silicone case for the iPhone 15 Pro with raised edges that protect the screen and camera. Soft microfibre lining, wireless charging compatible.' },
    expected: { category: '3.1.2', language: 'en', attributes: { brand: 'Spigen', material: 'silicone', color: 'black' }, issues: [] },
  },
  {
    name: 'en all caps title',
    input: { ...FULL, brand: 'Adidas', title: 'ADIDAS WOMENS HOODIE GREY COTTON SIZE M', description: 'A warm hoodie in soft cotton fleece with a kangaroo pocket and an adjustable hood. Regular fit, machine washable at 30 degrees, grey melange colour.' },
    expected: { category: '2.1.11', language: 'en', attributes: { gender: 'women', color: 'grey', material: 'cotton', size: 'M' }, issues: ['TITLE_ALL_CAPS'] },
  },
  {
    name: 'en keyword stuffing',
    input: { ...FULL, brand: 'Generic', title: 'Generic Phone Case Case iPhone Case Cover Case Silicone Case', description: 'Phone case. Case for phone. Best case. Case case case case for iPhone, silicone case, cover case, the case you need.' },
    expected: { category: '3.1.2', language: 'en', attributes: { material: 'silicone' }, issues: ['TITLE_KEYWORD_STUFFING', 'DESCRIPTION_KEYWORD_STUFFING'] },
  },
  {
    name: 'en emoji and promotional title',
    input: { ...FULL, brand: 'JBL', title: '🔥 JBL Flip 6 Bluetooth Speaker - SALE - Free Shipping 🔥', description: 'Portable waterproof Bluetooth speaker with 12 hours of playtime, IP67 rating and a bold sound. Pair two speakers for stereo. Colour: blue.' },
    expected: { category: '3.3.2', language: 'en', attributes: { brand: 'JBL', color: 'blue', model: 'Flip 6' }, issues: ['TITLE_HAS_EMOJI', 'TITLE_PROMOTIONAL'] },
  },
  {
    name: 'en html description',
    input: { ...FULL, brand: 'Philips', title: 'Philips Series 3000 Electric Toothbrush, White', description: '<ul><li>Sonic technology removes up to 3x more plaque</li><li>2 minute timer &amp; quadpacer</li><li>Battery lasts 14 days</li></ul><p>Includes one brush head and a charger.</p>' },
    expected: { category: '5.1.5', language: 'en', attributes: { brand: 'Philips', color: 'white' }, issues: ['DESCRIPTION_HAS_HTML'] },
  },
  {
    name: 'en missing brand',
    input: { ...FULL, title: 'Stainless Steel Kitchen Knife Set with Wooden Block', description: 'Six forged knives in stainless steel (chef, bread, carving, utility, paring, santoku) and a solid oak block. Hand wash recommended, sharpen regularly.' },
    expected: { category: '6.1.2', language: 'en', attributes: { brand: null, material: 'stainless steel' }, issues: ['BRAND_MISSING'] },
  },
  {
    name: 'en wrong category hint',
    input: { ...FULL, brand: 'Lego', category: 'Electronics > Computers', title: 'Lego Classic Creative Building Blocks Set 1500 Pieces', description: 'A box of 1500 classic bricks in 33 colours for building houses, cars and animals. Ages 4+. Compatible with every Lego set, with ideas booklet inside.' },
    expected: { category: '9.1.1', language: 'en', attributes: { brand: 'Lego', age: '4+' }, issues: ['CATEGORY_MISMATCH'] },
  },
  {
    name: 'en price as text, price also in title',
    input: { brand: 'Lavazza', currency: 'EUR', sku: 'LV-1', price: '12.50' as unknown as number, title: 'Lavazza Qualita Rossa Ground Coffee 250g - only €5.99', description: 'A blend of Arabica and Robusta beans, medium roast, ground for moka pots and drip coffee makers. Chocolate and dried fruit notes, 250 g vacuum pack.' },
    expected: { category: '4.1.1', language: 'en', attributes: { brand: 'Lavazza', weight: '250 g' }, issues: ['TITLE_HAS_PRICE'] },
  },
  {
    name: 'en too short title and description, no price',
    input: { sku: 'X', title: 'Dog bed', description: 'Soft bed.' },
    expected: { category: '1.1.5', language: 'en', attributes: {}, issues: ['TITLE_TOO_SHORT', 'BRAND_MISSING', 'PRICE_MISSING', 'DESCRIPTION_TOO_SHORT'] },
  },
  {
    name: 'en description repeats title',
    input: { ...FULL, brand: 'Dyson', title: 'Dyson V15 Detect Cordless Vacuum Cleaner', description: 'Dyson V15 Detect cordless vacuum cleaner.' },
    expected: { category: '6.2.1', language: 'en', attributes: { brand: 'Dyson', model: 'V15' }, issues: ['DESCRIPTION_TOO_SHORT', 'DESCRIPTION_REPEATS_TITLE'] },
  },
  {
    name: 'en too long title',
    input: { ...FULL, brand: 'Sony', title: 'Sony WH-1000XM5 Wireless Noise Cancelling Over-Ear Headphones with Auto Noise Cancelling Optimizer, Crystal Clear Hands-Free Calling and Alexa Voice Control, Black, 30 Hours Battery', description: 'Industry-leading noise cancellation with two processors and eight microphones, 30 hours of battery life, quick charging and multipoint connection.' },
    expected: { category: '3.3.1', language: 'en', attributes: { brand: 'Sony', color: 'black', model: 'WH-1000XM5' }, issues: ['TITLE_TOO_LONG', 'TITLE_KEYWORD_STUFFING'] },
  },
  {
    name: 'en brand not in title',
    input: { ...FULL, brand: 'Tefal', title: 'Non-Stick Frying Pan 28 cm with Thermo-Spot', description: 'A 28 cm aluminium frying pan with a titanium non-stick coating and a heat indicator. Suitable for all hobs including induction, dishwasher safe.' },
    expected: { category: '6.1.1', language: 'en', attributes: { brand: 'Tefal', material: 'aluminium' }, issues: ['BRAND_NOT_IN_TITLE'] },
  },
  {
    name: 'en brand conflict',
    input: { ...FULL, brand: 'Adidas', title: 'Nike Revolution 6 Running Shoes for Women', description: 'Comfortable women\'s running shoes with a soft foam midsole, a breathable knit upper and a rubber outsole for daily runs and the gym.' },
    expected: { category: '2.2.2', language: 'en', attributes: { gender: 'women', use: 'running' }, issues: ['BRAND_CONFLICT'] },
  },
  {
    name: 'en colour conflict',
    input: { ...FULL, brand: 'Zara', title: 'Zara Women\'s Midi Dress Red Viscose', description: 'A flowing midi dress in white viscose with a V-neck, short sleeves and a tie belt. Lined, falls below the knee, sizes XS to XL.' },
    expected: { category: '2.1.3', language: 'en', attributes: { gender: 'women', color: 'red', material: 'viscose' }, issues: ['COLOR_CONFLICT'] },
  },
  {
    name: 'en unknown product type',
    input: { ...FULL, brand: 'Acme', title: 'Acme Deluxe Widget Pro Edition', description: 'The Acme widget does everything you need and more, built to last with a two year warranty and friendly support from our team.' },
    expected: { category: null, language: 'en', attributes: { brand: 'Acme' }, issues: ['CATEGORY_UNKNOWN'] },
  },
  {
    name: 'en olive oil by volume',
    input: { ...FULL, brand: 'Iliada', title: 'Iliada Extra Virgin Olive Oil 500ml Kalamata PDO', description: 'Cold-extracted extra virgin olive oil from Koroneiki olives grown near Kalamata, acidity under 0.5%. Glass bottle of 500 ml, store away from light.' },
    expected: { category: '4.2.4', language: 'en', attributes: { volume: '500 ml' }, issues: [] },
  },
  {
    name: 'en category hint by id fits',
    input: { ...FULL, brand: 'Royal Canin', category: '1.1.1', title: 'Royal Canin Medium Adult Dry Dog Food 15kg', description: 'Complete dry food for adult dogs of medium breeds (11 to 25 kg), with balanced protein and fibre for healthy digestion and a shiny coat. 15 kg bag.' },
    expected: { category: '1.1.1', language: 'en', attributes: { brand: 'Royal Canin', weight: '15 kg' }, issues: [] },
  },
  {
    name: 'en contact info in description',
    input: { ...FULL, brand: 'Bosch', title: 'Bosch Cordless Drill GSR 12V-15 with 2 Batteries', description: 'Compact 12 V cordless drill driver with two 2.0 Ah batteries and a charger, 30 Nm torque. Questions? Call +359 888 123 456 or write to shop@example.com.' },
    expected: { category: '6.7.1', language: 'en', attributes: { brand: 'Bosch' }, issues: ['DESCRIPTION_HAS_CONTACT_INFO'] },
  },
  {
    name: 'en tyres with size',
    input: { ...FULL, brand: 'Michelin', title: 'Michelin Alpin 6 Winter Tyres 205/55 R16', description: 'Winter tyre for cars with excellent grip on snow and wet roads, long tread life and low rolling resistance. Sold per tyre, 205/55 R16 91H.' },
    expected: { category: '10.1.1', language: 'en', attributes: { brand: 'Michelin', size: '205/55R16', use: 'winter', model: 'Alpin 6' }, issues: [] },
  },
  // ---------------------------------------------------------------- Bulgarian
  {
    name: 'bg clean sneakers with Latin brand',
    input: { ...FULL, brand: 'Adidas', title: 'Мъжки маратонки Adidas Runfalcon 3.0 черни, номер 43', description: 'Леки мъжки маратонки за бягане и ежедневие с дишащ текстилен горен слой и мека подметка от гума. Черен цвят, номерация от 40 до 46.' },
    expected: { category: '2.2.1', language: 'bg', attributes: { brand: 'Adidas', gender: 'men', color: 'black', size: '43', model: 'Runfalcon 3.0' }, issues: [] },
  },
  {
    name: 'bg running shoes named after "за"',
    input: { ...FULL, brand: 'Asics', title: 'Дамски обувки за бягане Asics Gel-Kayano 30, сини', description: 'Стабилни дамски обувки за бягане по асфалт с омекотяване GEL в петата. Синя горна част от дишаща мрежа, размери 36-42.' },
    expected: { category: '2.2.2', language: 'bg', attributes: { brand: 'Asics', gender: 'women', color: 'blue', use: 'running' }, issues: [] },
  },
  {
    name: 'bg all caps and promo',
    input: { ...FULL, brand: 'Samsung', title: 'СМАРТФОН SAMSUNG GALAXY A55 128GB ЧЕРЕН ПРОМОЦИЯ', description: 'Смартфон Samsung Galaxy A55 с 6,6-инчов екран, 8GB RAM и 128GB памет, тройна камера 50 MP и батерия 5000 mAh. Черен цвят, две SIM карти.' },
    expected: { category: '3.1.1', language: 'bg', attributes: { brand: 'Samsung', color: 'black', storage: '128 GB', model: 'Galaxy A55' }, issues: ['TITLE_ALL_CAPS', 'TITLE_PROMOTIONAL'] },
  },
  {
    name: 'bg feminine colour form',
    input: { ...FULL, brand: 'Mango', title: 'Mango дамска рокля черна от памук, размер S', description: 'Лятна дамска рокля от 100% памук с къс ръкав и джобове. Черна, дълга до коляното, подходяща за ежедневие и офис.' },
    expected: { category: '2.1.3', language: 'bg', attributes: { gender: 'women', color: 'black', material: 'cotton', size: 'S' }, issues: [] },
  },
  {
    name: 'bg neuter colour form and jacket',
    input: { ...FULL, brand: 'Columbia', title: 'Columbia мъжко зимно яке синьо, водоустойчиво', description: 'Топло мъжко яке с изолация и качулка, водоустойчива външна материя от полиестер. Синьо, подходящо за планина и град, размери M до XXL.' },
    expected: { category: '2.1.8', language: 'bg', attributes: { gender: 'men', color: 'blue', use: 'winter', material: 'polyester' }, issues: [] },
  },
  {
    name: 'bg leather handbag',
    input: { ...FULL, brand: 'Guess', title: 'Guess дамска чанта от естествена кожа, кафява', description: 'Елегантна дамска чанта през рамо от естествена кожа с цип и три отделения. Кафяв цвят, регулируема дръжка, размери 30 х 22 х 10 см.' },
    expected: { category: '2.3.1', language: 'bg', attributes: { gender: 'women', color: 'brown', material: 'leather' }, issues: [] },
  },
  {
    name: 'bg face cream: кожа is skin, not leather',
    input: { ...FULL, brand: 'Nivea', title: 'Nivea хидратиращ крем за лице за суха кожа 50 мл', description: 'Лек хидратиращ крем за лице с хиалуронова киселина за суха и чувствителна кожа. Попива бързо, без парфюм, 50 мл.' },
    expected: { category: '5.2.5', language: 'bg', attributes: { brand: 'Nivea', material: null, volume: '50 ml' }, issues: [] },
  },
  {
    name: 'bg keyword stuffing',
    input: { ...FULL, brand: 'Generic', title: 'Калъф калъф за телефон калъф силиконов калъф iPhone калъф', description: 'Калъф за телефон. Силиконов калъф. Калъф калъф калъф за iPhone. Най-добрият калъф, калъф за всеки, калъф.' },
    expected: { category: '3.1.2', language: 'bg', attributes: { material: 'silicone' }, issues: ['TITLE_KEYWORD_STUFFING', 'BRAND_NOT_IN_TITLE', 'DESCRIPTION_REPEATS_TITLE', 'DESCRIPTION_KEYWORD_STUFFING'] },
  },
  {
    name: 'bg emoji and price in title',
    input: { ...FULL, brand: 'Lego', title: '🎁 Конструктор Lego City Полицейски участък 60316 - само 89 лв! 🎁', description: 'Комплект Lego City с полицейски участък, затвор, полицейска кола и 5 минифигурки. 668 части, за деца от 6 години нагоре.' },
    expected: { category: '9.1.1', language: 'bg', attributes: { brand: 'Lego', age: '6+', model: '60316' }, issues: ['TITLE_HAS_EMOJI', 'TITLE_HAS_PRICE'] },
  },
  {
    name: 'bg html description with entities',
    input: { ...FULL, brand: 'Tefal', title: 'Tefal тиган с незалепващо покритие 28 см', description: '<p><strong>Тиган Tefal</strong> с титаниево незалепващо покритие &amp; индикатор за температура.</p><br><p>Подходящ за всички котлони, включително индукционни. Може да се мие в съдомиялна.</p>' },
    expected: { category: '6.1.1', language: 'bg', attributes: { brand: 'Tefal' }, issues: ['DESCRIPTION_HAS_HTML'] },
  },
  {
    name: 'bg missing brand honey',
    input: { ...FULL, title: 'Пчелен мед акациев 1 кг от Странджа', description: 'Натурален акациев пчелен мед от собствен пчелин в Странджа, реколта 2026. Светъл, течен и ароматен, в стъклен буркан от 1 кг.' },
    expected: { category: '4.2.3', language: 'bg', attributes: { brand: null, weight: '1 kg' }, issues: ['BRAND_MISSING'] },
  },
  {
    name: 'bg wrong category hint in Bulgarian',
    input: { ...FULL, brand: 'Xiaomi', category: 'Облекло и аксесоари > Обувки', title: 'Xiaomi Robot Vacuum S10 робот прахосмукачка', description: 'Робот прахосмукачка с лазерна навигация, мощност на засмукване 4000 Pa и мокро почистване. Работи до 130 минути, управление от приложение.' },
    expected: { category: '6.2.1', language: 'bg', attributes: { brand: 'Xiaomi', model: 'Robot Vacuum S10' }, issues: ['CATEGORY_MISMATCH'] },
  },
  {
    name: 'bg category hint fits by Bulgarian label',
    input: { ...FULL, brand: 'Devin', category: 'Бутилирана вода', title: 'Devin минерална вода 1,5 л, 6 бр.', description: 'Натурална минерална вода Devin от Родопите, ниско минерализирана. Стек от 6 бутилки по 1,5 литра, подходяща за ежедневна употреба.' },
    expected: { category: '4.1.7', language: 'bg', attributes: { brand: 'Devin', volume: '1.5 l', pack_size: '6' }, issues: [] },
  },
  {
    name: 'bg price as decimal string, no currency',
    input: { brand: 'Rosa Impex', sku: 'RI-7', price: '8.90' as unknown as number, title: 'Rosa Impex розова вода 210 мл с натурално розово масло', description: 'Натурална розова вода от българска маслодайна роза за тонизиране на лицето. Без алкохол, подходяща за всеки тип кожа, 210 мл.' },
    expected: { category: '5.2.5', language: 'bg', attributes: { brand: 'Rosa Impex', volume: '210 ml' }, issues: ['CURRENCY_MISSING'] },
  },
  {
    name: 'bg children T-shirt',
    input: { ...FULL, brand: 'Benetton', title: 'Benetton детска тениска бяла, памук, 110 см', description: 'Детска тениска от мек органичен памук с щампа отпред и къс ръкав. Бяла, за деца от 4 до 5 години, ръст 110 см. Пране на 30 градуса.' },
    expected: { category: '2.1.1', language: 'bg', attributes: { gender: 'kids', color: 'white', material: 'cotton' }, issues: [] },
  },
  {
    name: 'bg gender conflict',
    input: { ...FULL, brand: 'Puma', title: 'Puma мъжки суитшърт с качулка сив', description: 'Удобен дамски суитшърт с качулка и джоб кенгуру, от памук и полиестер. Сив цвят, свободна кройка, подходящ за тренировка и ежедневие.' },
    expected: { category: '2.1.11', language: 'bg', attributes: { gender: 'men', color: 'grey' }, issues: ['GENDER_CONFLICT'] },
  },
  {
    name: 'bg laptop mixed script',
    input: { ...FULL, brand: 'Lenovo', title: 'Лаптоп Lenovo IdeaPad Slim 5 14" 16GB RAM 512GB SSD', description: 'Лек лаптоп с 14-инчов OLED екран, процесор AMD Ryzen 7, 16GB RAM и 512GB SSD памет. Метален корпус, батерия до 12 часа, Windows 11.' },
    expected: { category: '3.2.1', language: 'bg', attributes: { brand: 'Lenovo', storage: '512 GB', memory: '16 GB', screen_size: '14 in', model: 'IdeaPad Slim 5' }, issues: [] },
  },
  {
    name: 'bg title too short, description repeats title',
    input: { ...FULL, brand: 'Weber', title: 'Скара Weber', description: 'Скара Weber' },
    expected: { category: '6.6.5', language: 'bg', attributes: { brand: 'Weber' }, issues: ['TITLE_TOO_SHORT', 'DESCRIPTION_TOO_SHORT', 'DESCRIPTION_REPEATS_TITLE'] },
  },
  {
    name: 'bg wine: red is not the colour of the wine listing',
    input: { ...FULL, brand: 'Villa Melnik', title: 'Червено вино Villa Melnik Мелник 55, 750 мл', description: 'Сухо червено вино от сорта Широка мелнишка лоза, реколта 2022, отлежало 12 месеца в дъбови бъчви. Бутилка от 750 мл, 13,5% алкохол.' },
    expected: { category: '4.1.3', language: 'bg', attributes: { color: null, volume: '750 ml' }, issues: [] },
  },
  {
    name: 'bg dog food by weight',
    input: { ...FULL, brand: 'Pedigree', title: 'Pedigree суха храна за кучета с говеждо 10 кг', description: 'Пълноценна суха храна за пораснали кучета от всички породи, с говеждо месо и зеленчуци. Подкрепя храносмилането и здравите зъби. Опаковка 10 кг.' },
    expected: { category: '1.1.1', language: 'bg', attributes: { brand: 'Pedigree', weight: '10 kg' }, issues: [] },
  },
  {
    name: 'bg contact info and promo in description',
    input: { ...FULL, brand: 'Bosch', title: 'Bosch пералня Serie 4 8 кг, 1400 оборота, бяла', description: 'Пералня със система EcoSilence Drive, капацитет 8 кг и клас на енергийна ефективност A. Промоция! Поръчки на www.example.bg или на 0888 123 456.' },
    expected: { category: '6.2.2', language: 'bg', attributes: { brand: 'Bosch', color: 'white', weight: '8 kg' }, issues: ['DESCRIPTION_PROMOTIONAL', 'DESCRIPTION_HAS_CONTACT_INFO'] },
  },
  {
    name: 'bg accessory: the phone brand after "за" is not the brand',
    input: { ...FULL, title: 'Калъф за Samsung Galaxy S24, силиконов, прозрачен', description: 'Мек силиконов калъф, който пази телефона от удари и надраскване. Прозрачен, с точни отвори за камерата и бутоните.' },
    expected: { category: '3.1.2', language: 'bg', attributes: { brand: null, material: 'silicone' }, issues: ['BRAND_MISSING'] },
  },
  {
    name: 'bg high heels, feminine plural colour, leather',
    input: { ...FULL, brand: 'Guess', title: 'Guess дамски обувки на висок ток, червени, естествена кожа, номер 38', description: 'Елегантни дамски обувки на ток 9 см от естествена кожа с ортопедична стелка. Червени, подходящи за вечерни и официални поводи.' },
    expected: { category: '2.2.7', language: 'bg', attributes: { gender: 'women', color: 'red', material: 'leather', size: '38', use: 'formal' }, issues: [] },
  },
  {
    name: 'bg book',
    input: { ...FULL, brand: 'Сиела', title: 'Сиела: „Под игото“ от Иван Вазов, роман, твърди корици', description: 'Класическият роман на Иван Вазов за живота в българския град Бяла черква преди Априлското въстание. Ново издание с твърди корици, 480 страници.' },
    expected: { category: '7.1.1', language: 'bg', attributes: { brand: 'Сиела' }, issues: [] },
  },
];
