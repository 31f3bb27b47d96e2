import { describe, expect, it } from 'vitest';
import type { ApiModel } from '../../../../src/ir/types.js';
import { apiBrandWords } from '../../../../src/emit/search/api-brand.js';

const api = (title: string, ...urls: string[]) =>
  ({ title, servers: urls.map((url) => ({ kind: 'server', url })) }) as unknown as ApiModel;

describe('apiBrandWords', () => {
  it('is the title words that are also labels of a server host, as the title writes them', () => {
    expect(apiBrandWords(api('Gmail API', 'https://gmail.googleapis.com/'))).toEqual(['Gmail']);
    expect(apiBrandWords(api('DigitalOcean API', 'https://api.digitalocean.com'))).toEqual(['DigitalOcean']);
    expect(apiBrandWords(api('Just Eat UK', 'https://uk.api.just-eat.io'))).toEqual(['Eat', 'Just']);
  });

  it('leaves out generic words and titles with no absolute server', () => {
    expect(apiBrandWords(api('Slack Web API', 'https://slack.com/api', 'https://web.example.com'))).toEqual(['Slack']);
    expect(apiBrandWords(api('Gitea API.', '/api/v1'))).toEqual([]);
    expect(apiBrandWords(api('Pet Store'))).toEqual([]);
  });
});
