/**
 * The requests `npm start` suggests, each after the base URL. test/docs.test.ts sends every one to a
 * build of the sample and fails when one that promises results gets none.
 */
export const START_EXAMPLES: readonly string[] = [
  '/api/v1/clients/?client_name=bank&page_size=10',
  '/api/v1/clients/?ordering=-id',
  '/api/v1/clients/?ordering=-name&page=2&format=json',
  '/api/v1/clients/?page=last',
  '/api/v1/clients/?client_country=US&client_name=health&ordering=-name',
  '/api/v1/clients/44400/',
  '/api/v1/registrants/401105130/?format=api',
];
