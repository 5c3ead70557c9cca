// i18n-iso-countries with its English names only: the package's main entry registers every one of
// its 80 languages (about 60 ms at each process's start); the service names countries in English.
// Import the library from here.
import isoCountries from 'i18n-iso-countries/index.js';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

isoCountries.registerLocale(english);

export default isoCountries;
