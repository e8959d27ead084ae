import * as os from 'os';
import { databaseUrl, projectName, redactedUrl, rowOrigin, urlProblem } from './config';

describe('the database URL', () => {
  it('comes from HOOKPOLICY_DATABASE_URL only; empty or blank is none', () => {
    expect(databaseUrl({ HOOKPOLICY_DATABASE_URL: ' postgres://db/team ' })).toBe('postgres://db/team');
    expect(databaseUrl({ HOOKPOLICY_DATABASE_URL: '  ' })).toBeNull();
    expect(databaseUrl({ DATABASE_URL: 'postgres://db/team' })).toBeNull();
  });

  it.each([
    ['postgres://u:p@db:5432/team', null],
    ['postgresql://db/team?sslmode=require', null],
    ['postgres://u@/team?host=/var/run/postgresql', null],
    ['db/team', 'HOOKPOLICY_DATABASE_URL is not a URL (expected postgres://user:password@host:5432/database)'],
    ['mysql://u:secret@db/team', 'HOOKPOLICY_DATABASE_URL is not a postgres:// or postgresql:// URL (it starts with "mysql:")'],
    ['postgres://db:5432/', 'HOOKPOLICY_DATABASE_URL names no database (expected postgres://user:password@host:5432/database)'],
  ])('%s: %s', (url, problem) => {
    expect(urlProblem(url)).toBe(problem);
  });

  it('is shown with its password hidden, in the user part and in the query', () => {
    expect(redactedUrl('postgres://ann:s3cret@db:5432/team')).toBe('postgres://ann:***@db:5432/team');
    expect(redactedUrl('postgres://db/team?password=s3cret&sslmode=require')).toBe('postgres://db/team?password=***&sslmode=require');
    expect(redactedUrl('postgres://ann:s3cret@/team?host=/run/postgresql')).toBe('postgres://ann:***@/team?host=/run/postgresql');
    expect(redactedUrl('not a url s3cret')).toBe('(not a URL)');
  });
});

describe('where a row comes from', () => {
  it('the project is HOOKPOLICY_PROJECT, else the folder\'s name; the host and user are this machine\'s', () => {
    expect(projectName({}, '/home/ann/shop/')).toBe('shop');
    expect(projectName({ HOOKPOLICY_PROJECT: 'acme/shop' }, '/home/ann/shop')).toBe('acme/shop');
    expect(rowOrigin({}, '/home/ann/shop')).toEqual({ project: 'shop', project_dir: '/home/ann/shop', host: os.hostname(), user: os.userInfo().username });
  });
});
