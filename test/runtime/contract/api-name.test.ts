/**
 * What the server's instructions and the meta-tools call the API (api-name.ts): the title's words that name it, so
 * a model reads "the GitHub API", not "the GitHub's official OpenAPI spec + Octokit extension API".
 */
import { describe, expect, it } from 'vitest';
import { apiName } from '../../../templates/runtime/contract/api-name.js';

describe('apiName', () => {
  it.each([
    ["GitHub's official OpenAPI spec + Octokit extension", 'GitHub API'],
    ['Spotify Web API with fixes and improvements from sonallux', 'Spotify API'],
    ['Discord HTTP API (Preview)', 'Discord API'],
    ['Swagger Petstore - OpenAPI 3.0', 'Petstore API'],
    ['YouTube Data API v3', 'YouTube Data API'],
    ['Microsoft Graph v1.0', 'Microsoft Graph API'],
    ['Twilio - Api', 'Twilio API'],
    ['Box Platform API', 'Box Platform API'],
    ['Just Eat UK', 'Just Eat UK API'],
  ])('names %j as %j, in its own case', (title, name) => {
    expect(apiName(title)).toBe(name);
  });

  it('says API once', () => {
    expect(apiName('Gmail API')).toBe('Gmail API');
    expect(apiName('Gitea API.')).toBe('Gitea API');
    expect(apiName('RapidAPI')).toBe('RapidAPI');
    expect(apiName('Capi')).toBe('Capi API');
  });

  it('keeps the title when no word of it names the API, and is never empty', () => {
    expect(apiName('The API for APIs')).toBe('The API for APIs');
    expect(apiName('API v2')).toBe('API v2');
    expect(apiName('天气 API')).toBe('天气 API');
    expect(apiName('')).toBe('API');
    expect(apiName('  ')).toBe('API');
  });

  it('is cut to 60 characters, whatever the title says', () => {
    expect(apiName(`${'x'.repeat(100)}`)).toBe(`${'x'.repeat(59)}… API`);
    expect(apiName('word '.repeat(1000)).length).toBeLessThanOrEqual(64);
  });
});
