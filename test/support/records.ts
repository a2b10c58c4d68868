/** Small client records for tests, shaped as the live service returns them. */
export function clientRecord(id: number, overrides: Record<string, unknown> = {}, registrant: Record<string, unknown> = {}) {
  return {
    id,
    url: `https://lda.senate.gov/api/v1/clients/${id}/?format=api`,
    client_id: id,
    name: `CLIENT ${id}`,
    general_description: null,
    client_government_entity: null,
    client_self_select: false,
    state: 'TX',
    state_display: 'Texas',
    country: 'US',
    country_display: 'United States of America',
    ppb_state: null,
    ppb_state_display: null,
    ppb_country: 'US',
    ppb_country_display: 'United States of America',
    effective_date: '2024-01-01',
    ...overrides,
    registrant: {
      id: 900,
      url: 'https://lda.senate.gov/api/v1/registrants/900/?format=api',
      house_registrant_id: null,
      name: 'REGISTRANT 900',
      dt_updated: '2025-07-24T11:34:51.894845-04:00',
      ...registrant,
    },
  };
}

export function ndjson(records: readonly unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}
