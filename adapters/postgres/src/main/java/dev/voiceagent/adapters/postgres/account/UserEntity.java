package dev.voiceagent.adapters.postgres.account;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

@Entity
@Table(name = "users")
public class UserEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false)
    public String email;

    public String name;

    @Column(name = "provider_id", nullable = false, unique = true)
    public String providerId;

    @Column(name = "selected_organization_id")
    public Long selectedOrganizationId;

    @Column(name = "password_hash")
    public String passwordHash;

    @Column(name = "is_superuser", nullable = false)
    public boolean superuser;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;
}
