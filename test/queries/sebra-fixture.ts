// The hand-made SEBRA fixture. Every expected value in the SEBRA tests is worked out from
// this table by hand; the arithmetic is written next to each assertion.
//
// BGN, six HAS_PAYMENTS days (d1 in January, d2-d6 in February 2024) and one NO_PAYMENTS day:
//   day  date        weekday  A:01 (n)  A:10 (n)  A:50 (n)  B:40 (n)  C:uncoded (n) | total  count
//   d1   2024-01-31  Wed(2)   30 (2)    20 (3)              30 (4)    20 (1)        |  100    10
//   d2   2024-02-01  Thu(3)   30 (2)    20 (3)              30 (4)    20 (1)        |  100    10
//   d3   2024-02-02  Fri(4)   40 (2)    10 (3)              30 (4)    20 (1)        |  100    10
//   d4   2024-02-05  Mon(0)   30 (2)    20 (3)              30 (4)    20 (1)        |  100    10
//   d5   2024-02-06  Tue(1)   30 (2)    20 (3)              30 (34)   20 (1)        |  100    40
//   d6   2024-02-07  Wed(2)   30 (1)    20 (3)    300 (1)   30 (4)    20 (1)        |  400    10
//   --   2024-02-08  NO_PAYMENTS: A:10 999.00 (5) must be ignored everywhere.
// A = Министерство на финансите, B = НОИ - ДОО, C = Столична община (line "Трансфери за местни дейности", no code).
// EUR: e1 2026-01-05 (Mon): A:01 15.50 (1), B:40 100.25 (2); e2 2026-01-06 (Tue): A:01 15.50 (1).
import type { FixtureDay, FixturePayment } from '../helpers/snapshot.ts';

export const A = 'Министерство на финансите';
export const B = 'НОИ - ДОО';
export const C = 'Столична община';

const SALARIES = 'Заплати, възнаграждения и други плащания за персонала - нетна сума за изплащане';
const MAINTENANCE = 'Издръжка';
const CAPITAL = 'Плащания за дълготрайни активи, основен ремонт и капиталови трансфери';
const SOCIAL = 'Стипендии, пенсии, помощи и текущи трансфери за домакинства';
const LOCAL_TRANSFERS = 'Трансфери за местни дейности';

function bgnDay(date: string, a01: [string, number], a10: string, b40count: number, capital = false): FixturePayment[] {
  const rows: FixturePayment[] = [
    { date, currency: 'BGN', programme: A, code: '01', description: SALARIES, amount: a01[0], count: a01[1] },
    { date, currency: 'BGN', programme: A, code: '10', description: MAINTENANCE, amount: a10, count: 3 },
    { date, currency: 'BGN', programme: B, code: '40', description: SOCIAL, amount: '30.00', count: b40count },
    { date, currency: 'BGN', programme: C, code: '', description: LOCAL_TRANSFERS, amount: '20.00', count: 1 },
  ];
  if (capital) rows.push({ date, currency: 'BGN', programme: A, code: '50', description: CAPITAL, amount: '300.00', count: 1 });
  return rows;
}

export const fixturePayments: FixturePayment[] = [
  ...bgnDay('2024-01-31', ['30.00', 2], '20.00', 4),
  ...bgnDay('2024-02-01', ['30.00', 2], '20.00', 4),
  ...bgnDay('2024-02-02', ['40.00', 2], '10.00', 4),
  ...bgnDay('2024-02-05', ['30.00', 2], '20.00', 4),
  ...bgnDay('2024-02-06', ['30.00', 2], '20.00', 34),
  ...bgnDay('2024-02-07', ['30.00', 1], '20.00', 4, true),
  { date: '2024-02-08', currency: 'BGN', programme: A, code: '10', description: MAINTENANCE, amount: '999.00', count: 5 },
  { date: '2026-01-05', currency: 'EUR', programme: A, code: '01', description: SALARIES, amount: '15.50', count: 1 },
  { date: '2026-01-05', currency: 'EUR', programme: B, code: '40', description: SOCIAL, amount: '100.25', count: 2 },
  { date: '2026-01-06', currency: 'EUR', programme: A, code: '01', description: SALARIES, amount: '15.50', count: 1 },
];

export const fixtureDays: FixtureDay[] = [
  ...['2024-01-31', '2024-02-01', '2024-02-02', '2024-02-05', '2024-02-06', '2024-02-07'].map(
    (date): FixtureDay => ({ date, currency: 'BGN', status: 'HAS_PAYMENTS' }),
  ),
  { date: '2024-02-08', currency: 'BGN', status: 'NO_PAYMENTS' },
  { date: '2026-01-05', currency: 'EUR', status: 'HAS_PAYMENTS' },
  { date: '2026-01-06', currency: 'EUR', status: 'HAS_PAYMENTS' },
];
