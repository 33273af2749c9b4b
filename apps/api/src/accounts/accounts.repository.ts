import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';
import { UsernameTakenError } from './errors';
import { NOTIFICATION_SESSION_NAME } from '../notifications/notification-connection';
import { type RevocationNotice } from './token-revocations';

export interface AccountRecord {
  id: string;
  username: string;
  createdAt: Date;
}

export interface AccountCredentials extends AccountRecord {
  passwordHash: string;
}

/** A successful sign-in, as stored: its token and where it came from. */
export interface SignIn {
  accountId: string;
  tokenHash: string;
  issuedAt: Date;
  expiresAt: Date;
  /** See signInAddressDigest; undefined when the address is unknown. */
  addressDigest: string | undefined;
}

/**
 * What a revoking transaction did: whether it changed anything, and how many instances had a
 * notification connection when it did (the ones whose answer its notice is worth waiting for).
 */
export interface Revocation {
  applied: boolean;
  instances: number;
}

// The addresses an account signed in from that are remembered: the newest few, for a while.
const SIGN_IN_ADDRESSES_KEPT = 10;

/** The accounts' statements, each within the database deadline (PrismaService.bounded). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async create(
    username: string,
    usernameKey: string,
    passwordHash: string,
  ): Promise<AccountRecord> {
    try {
      return await this.prisma.bounded(
        this.prisma.account.create({
          data: { username, usernameKey, passwordHash },
          select: { id: true, username: true, createdAt: true },
        }),
      );
    } catch (error) {
      // The unique index decides races between two sign-ups for one name.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new UsernameTakenError();
      }
      throw error;
    }
  }

  /** A deleted account has no key any more: its name finds nothing. */
  findCredentials(usernameKey: string): Promise<AccountCredentials | null> {
    return this.prisma.bounded(
      this.prisma.account.findUnique({
        where: { usernameKey },
        select: { id: true, username: true, createdAt: true, passwordHash: true },
      }),
    );
  }

  async findPasswordHash(accountId: string): Promise<string | undefined> {
    const account = await this.prisma.bounded(
      this.prisma.account.findFirst({
        where: { id: accountId, deletedAt: null },
        select: { passwordHash: true },
      }),
    );
    return account?.passwordHash;
  }

  /**
   * Stores a new token and the address it was obtained from, in one transaction; drops the
   * account's expired tokens and the addresses past the newest few, so that neither grows.
   */
  async storeSignIn(signIn: SignIn): Promise<void> {
    const { accountId, tokenHash, issuedAt, expiresAt, addressDigest } = signIn;
    const remember =
      addressDigest === undefined
        ? []
        : [
            this.prisma.signInAddress.upsert({
              where: { accountId_addressDigest: { accountId, addressDigest } },
              create: { accountId, addressDigest, lastSignedInAt: issuedAt },
              update: { lastSignedInAt: issuedAt },
            }),
            this.prisma.$executeRaw`
              DELETE FROM sign_in_addresses s
              WHERE s.account_id = ${accountId}::uuid AND s.address_digest NOT IN (
                SELECT k.address_digest FROM sign_in_addresses k
                WHERE k.account_id = ${accountId}::uuid
                ORDER BY k.last_signed_in_at DESC LIMIT ${SIGN_IN_ADDRESSES_KEPT})`,
          ];
    await this.prisma.bounded(
      this.prisma.$transaction([
        this.prisma.accessToken.deleteMany({ where: { accountId, expiresAt: { lte: issuedAt } } }),
        this.prisma.accessToken.create({
          data: { tokenHash, accountId, expiresAt, createdAt: issuedAt },
        }),
        ...remember,
      ]),
    );
  }

  /** Whether the account signed in from this address (by its digest) since `since`. */
  async isSignInAddress(accountId: string, addressDigest: string, since: Date): Promise<boolean> {
    const found = await this.prisma.bounded(
      this.prisma.signInAddress.findFirst({
        where: { accountId, addressDigest, lastSignedInAt: { gt: since } },
        select: { accountId: true },
      }),
    );
    return found !== null;
  }

  async findByAccessToken(
    tokenHash: string,
    now: Date,
  ): Promise<(AccountRecord & { tokenIssuedAt: Date; tokenExpiresAt: Date }) | null> {
    const token = await this.prisma.bounded(
      this.prisma.accessToken.findFirst({
        where: { tokenHash, expiresAt: { gt: now }, account: { deletedAt: null } },
        select: {
          createdAt: true,
          expiresAt: true,
          account: { select: { id: true, username: true, createdAt: true } },
        },
      }),
    );
    return (
      token && { ...token.account, tokenIssuedAt: token.createdAt, tokenExpiresAt: token.expiresAt }
    );
  }

  /** Deletes one token, and tells every instance in the same transaction. */
  async revokeToken(tokenHash: string, notice: RevocationNotice): Promise<Revocation> {
    const [, ...told] = await this.prisma.bounded(
      this.prisma.$transaction([
        this.prisma.accessToken.deleteMany({ where: { tokenHash } }),
        ...this.tell(notice),
      ]),
    );
    return { applied: true, instances: instancesOf(told) };
  }

  /** Deletes every token of the account, and tells every instance in the same transaction. */
  async revokeTokens(accountId: string, notice: RevocationNotice): Promise<Revocation> {
    const [, ...told] = await this.prisma.bounded(
      this.prisma.$transaction([
        this.prisma.accessToken.deleteMany({ where: { accountId } }),
        ...this.tell(notice),
      ]),
    );
    return { applied: true, instances: instancesOf(told) };
  }

  /**
   * Stores the new password hash and deletes every token of the account but `keptTokenHash`,
   * telling every instance, in one transaction. Not applied when the account is gone meanwhile.
   */
  async changePassword(
    accountId: string,
    passwordHash: string,
    keptTokenHash: string,
    notice: RevocationNotice,
  ): Promise<Revocation> {
    const [changed, , ...told] = await this.prisma.bounded(
      this.prisma.$transaction([
        this.prisma.account.updateMany({
          where: { id: accountId, deletedAt: null },
          data: { passwordHash },
        }),
        this.prisma.accessToken.deleteMany({
          where: { accountId, tokenHash: { not: keptTokenHash } },
        }),
        ...this.tell(notice),
      ]),
    );
    return { applied: changed.count === 1, instances: instancesOf(told) };
  }

  /**
   * Turns the account into a tombstone (see AccountPurge): no name (the name is free at once),
   * no password, no tokens, no remembered addresses, no memberships; its projects wait for the
   * purge, and have no members any more, so that they exist for nobody at once (their other
   * members' streams and presence go with the memberships). Tells every instance in the same
   * transaction. Not applied when it was deleted already.
   */
  async markDeleted(accountId: string, notice: RevocationNotice): Promise<Revocation> {
    const [marked, , , , ...told] = await this.prisma.bounded(
      this.prisma.$transaction([
        this.prisma.account.updateMany({
          where: { id: accountId, deletedAt: null },
          data: { deletedAt: new Date(), usernameKey: null, username: '', passwordHash: '' },
        }),
        this.prisma.accessToken.deleteMany({ where: { accountId } }),
        this.prisma.signInAddress.deleteMany({ where: { accountId } }),
        this.prisma.projectMember.deleteMany({
          where: { OR: [{ accountId }, { project: { ownerId: accountId } }] },
        }),
        ...this.tell(notice),
      ]),
    );
    return { applied: marked.count === 1, instances: instancesOf(told) };
  }

  /**
   * The notice, delivered to every listening session when, and only if, the transaction
   * commits; and the number of instances' notification sessions at that moment.
   */
  private tell(notice: RevocationNotice) {
    return [
      this.prisma.$queryRaw<Array<{ instances: number }>>`
        SELECT count(*)::int AS instances FROM pg_stat_activity
        WHERE application_name = ${NOTIFICATION_SESSION_NAME} AND datname = current_database()`,
      this.prisma.$executeRaw`SELECT pg_notify(${notice.channel}, ${notice.payload})`,
    ] as const;
  }
}

function instancesOf(told: readonly unknown[]): number {
  const [counted] = told as [Array<{ instances: number }>];
  return counted[0]?.instances ?? 0;
}
