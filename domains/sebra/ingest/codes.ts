// The 23 SEBRA payment-type codes ("вид плащане") with their official names, as printed in the
// Ministry of Finance daily reports (damyor/bg-budget data/sources/sebra/codes.csv).

export interface SebraCode {
  code: string;
  name: string;
}

export const SEBRA_CODES: readonly SebraCode[] = [
  { code: '01', name: 'Заплати, възнаграждения и други плащания за персонала - нетна сума за изплащане' },
  { code: '02', name: 'Удържани данъци и осигурителни вноски от заплати и възнаграждения на персонала' },
  { code: '03', name: 'Плащания за други удръжки от възнаграждения за персонала' },
  { code: '05', name: 'Осигурителни вноски за сметка на осигурителя' },
  { code: '10', name: 'Издръжка' },
  { code: '18', name: 'Други разходи' },
  { code: '20', name: 'Разходи за лихви' },
  { code: '30', name: 'Текущи субсидии за предприятия' },
  { code: '40', name: 'Стипендии, пенсии, помощи и текущи трансфери за домакинства' },
  { code: '50', name: 'Плащания за дълготрайни активи, основен ремонт и капиталови трансфери' },
  { code: '60', name: 'Трансфери за бюджетни и извънбюджетни сметки' },
  {
    code: '70',
    name: 'Възмездно финансиране – придобиване на дялове и акции, предоставени кредити и временна финансова помощ',
  },
  { code: '80', name: 'Погашения по банкови заеми' },
  { code: '88', name: 'Средства на разпореждане' },
  { code: '89', name: 'Друго финансиране' },
  { code: '90', name: 'Възстановени приходи' },
  { code: '91', name: 'Теглене на BGN в брой' },
  { code: '92', name: 'Закупуване на валута в брой' },
  { code: '93', name: 'Закупуване на валута в брой, по сметка и за директен превод' },
  { code: '95', name: 'Преводи чрез директен дебит и по инициатива на БНБ' },
  { code: '96', name: 'Преводи по нареждане на титуляра с други платежни документи' },
  { code: '97', name: 'Операции по откриване/закриване на депозити' },
  { code: '98', name: 'Други операции в БНБ' },
];

/** Official name of a code, or undefined for a code outside the list. */
export function nameForCode(code: string): string | undefined {
  return SEBRA_CODES.find((entry) => entry.code === code)?.name;
}

/**
 * Key for comparing descriptions as different sources print them: case-insensitive, any dash
 * (hyphen, en dash, em dash, minus) the same, whitespace collapsed, spaces around dashes ignored.
 */
export function descriptionKey(text: string): string {
  return text
    .normalize('NFC')
    .toLocaleLowerCase('bg')
    .replace(/[\u2010-\u2015\u2212-]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/ ?- ?/g, '-')
    .trim();
}

const codeByKey = new Map(SEBRA_CODES.map((entry) => [descriptionKey(entry.name), entry.code]));

/** The code whose official name matches the description; '' for lines without a code (e.g. municipal subsidies). */
export function codeForDescription(description: string): string {
  return codeByKey.get(descriptionKey(description)) ?? '';
}
