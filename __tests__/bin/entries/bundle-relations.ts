// Bundle test entry with relations on SQLite: public posts and comments whose `author` relation reaches users, which
// need a signed-in caller (header x-user); posts take upsert, so every conditional write is there.
import Database from 'better-sqlite3';
import { relations } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, type ServerOptions } from 'tessera-api';

const users = sqliteTable('r_users', { id: integer('id').primaryKey(), name: text('name').notNull() });
const posts = sqliteTable('r_posts', { id: integer('id').primaryKey(), authorId: integer('author_id').notNull(), title: text('title').notNull() });
const comments = sqliteTable('r_comments', { id: integer('id').primaryKey(), postId: integer('post_id').notNull(), body: text('body').notNull() });
const postsRelations = relations(posts, ({ one, many }) => ({ author: one(users, { fields: [posts.authorId], references: [users.id] }), comments: many(comments) }));
const commentsRelations = relations(comments, ({ one }) => ({ post: one(posts, { fields: [comments.postId], references: [posts.id] }) }));

const client = new Database(':memory:');
client.exec(`CREATE TABLE r_users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE r_posts (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES r_users(id), title TEXT NOT NULL);
CREATE TABLE r_comments (id INTEGER PRIMARY KEY, post_id INTEGER NOT NULL REFERENCES r_posts(id), body TEXT NOT NULL);
INSERT INTO r_users VALUES (1, 'Alice');
INSERT INTO r_posts VALUES (1, 1, 'Hello');
INSERT INTO r_comments VALUES (1, 1, 'c1'), (2, 1, 'c2');`);
const db = drizzle(client, { schema: { users, posts, comments, postsRelations, commentsRelations } });
const blog = defineService({ name: 'blog', db });

const usersResource: any = blog.resource({ name: 'users', table: users, id: users.id }).use(
  crud({ access: { authorize: ({ ctx }: any) => ctx.user !== undefined }, fields: { id: { read: true, sort: true }, name: { read: true, filter: ['eq'] } } }),
);
const postsResource: any = blog.resource({ name: 'posts', table: posts, id: posts.id }).use(
  crud({
    access: 'public',
    fields: { id: { read: true, sort: true }, authorId: { read: true, create: true }, title: { read: true, create: true, update: true, filter: ['eq'] } },
    operations: { upsert: true },
    relations: { author: { resource: usersResource, filter: true }, comments: { resource: (): object => commentsResource, filter: true } },
  }),
);
const commentsResource: any = blog.resource({ name: 'comments', table: comments, id: comments.id }).use(
  crud({
    access: 'public',
    fields: { id: { read: true, sort: true }, postId: { read: true, create: true }, body: { read: true, filter: ['eq', 'contains'] } },
    relations: { post: { resource: postsResource, filter: true } },
  }),
);

export default {
  title: 'Relations bundle test',
  requestLogging: false,
  context: (req: any) => (req.headers['x-user'] === undefined ? {} : { user: { id: Number(req.headers['x-user']) } }),
} satisfies ServerOptions;
