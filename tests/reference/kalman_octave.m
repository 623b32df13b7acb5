% Reference steady-state Kalman gains for tests/systems/estimators/
% test_kalman_reference.c, computed by Octave's control package (lqe for
% continuous time, dlqe for discrete time). Run it with
%   octave --no-gui --quiet tests/reference/kalman_octave.m
% and paste the printed arrays into the test. Teal's discrete gain is the
% predictor gain L = A M (M the update gain dlqe returns); its P is the
% prediction covariance, dlqe's P.
pkg load control;
printf("/* Octave %s, control %s */\n", version(), pkg("describe", "control"){1}.version);

function print_matrix(name, X)
  X = X.';  % row-major
  printf("static const double %s[%d] = {", name, numel(X));
  for k = 1:numel(X)
    if k > 1
      printf(", ");
    end
    printf("%.17g", X(k));
  end
  printf("};\n");
end

% 1. continuous: a damped oscillator, position measured
A1 = [0 1; -2 -0.5]; C1 = [1 0]; W1 = [0.1 0; 0 1]; V1 = 0.01;
[L1, P1] = lqe(A1, eye(2), C1, W1, V1);
print_matrix("kL1", L1); print_matrix("kP1", P1);

% 2. continuous: three states (one unstable), two outputs, full W and V
A2 = [0.2 1 0; 0 -1 2; -1 0 -3]; C2 = [1 0 0; 0 1 1];
W2 = [2 0.5 0; 0.5 1 0.2; 0 0.2 0.5]; V2 = [0.1 0.02; 0.02 0.3];
[L2, P2] = lqe(A2, eye(3), C2, W2, V2);
print_matrix("kL2", L2); print_matrix("kP2", P2);

% 3. discrete: a sampled double integrator (h = 0.1), position measured
A3 = [1 0.1; 0 1]; C3 = [1 0]; W3 = [1e-4 0; 0 1e-2]; V3 = 0.04;
[M3, P3] = dlqe(A3, eye(2), C3, W3, V3);
print_matrix("kL3", A3 * M3); print_matrix("kP3", P3);

% 4. discrete: three states (one unstable), two outputs, full W and V
A4 = [1.05 0.1 0; 0 0.9 0.2; 0.1 0 0.7]; C4 = [1 0 0; 0 0 1];
W4 = [0.3 0.1 0; 0.1 0.2 0.05; 0 0.05 0.1]; V4 = [0.5 0.1; 0.1 0.2];
[M4, P4] = dlqe(A4, eye(3), C4, W4, V4);
print_matrix("kL4", A4 * M4); print_matrix("kP4", P4);
