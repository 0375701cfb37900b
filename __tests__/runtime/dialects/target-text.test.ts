// The database's address in start-up messages repeats only plain names: a mistyped connection string leaves the
// driver holding the password as the database's name, the host or the port, and that part is not repeated.
import { targetText } from '../../../runtime/dialects/target-text';

const NOT_PLAIN = '(not a plain name: check the connection string)';

describe('targetText', () => {
  it('names plain hosts, ports and databases as they are', () => {
    expect(targetText('127.0.0.1', 5432, 'shop')).toBe('127.0.0.1:5432/shop');
    expect(targetText('db.internal-1.example.com', '3306', 'my_app-2')).toBe('db.internal-1.example.com:3306/my_app-2');
    expect(targetText('/var/run/postgresql', 5432, '')).toBe('/var/run/postgresql:5432/');
    expect(targetText('::1', 5432, 'test')).toBe('::1:5432/test');
    expect(targetText('[fe80::1]', 5432, 'test')).toBe('[fe80::1]:5432/test');
  });

  it('never repeats a part that is not a plain name, where a password lands when the string is mistyped', () => {
    expect(targetText('localhost', 5432, 'postgres:S3cretPass@127.0.0.1:5432/shop')).toBe(`localhost:5432/${NOT_PLAIN}`);
    expect(targetText('user:S3cret@db', 5432, 'shop')).toBe(`${NOT_PLAIN}:5432/shop`);
    expect(targetText('db', 'S3cretPass', 'shop')).toBe(`db:${NOT_PLAIN}/shop`);
  });
});
